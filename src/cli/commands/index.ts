import type { Command } from 'commander';

/** Each command file exports a function that adds its verb to the program. */
export type RegisterCommand = (program: Command) => void;

/** Every verb of `wave`, in the order `wave --help` lists them. */
export const COMMANDS: RegisterCommand[] = [];
