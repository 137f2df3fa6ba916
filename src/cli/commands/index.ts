import type { Command } from 'commander';
import { registerResume } from './resume.js';
import { registerRun } from './run.js';
import { registerRuns } from './runs.js';
import { registerStatus } from './status.js';
import { registerLogs } from './logs.js';
import { registerCancel } from './cancel.js';
import { registerInit } from './init.js';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate.js';

/** Each command file exports a function that adds its verb to the program. */
export type RegisterCommand = (program: Command) => void;

/** Every verb of `wave`, in the order `wave --help` lists them. */
export const COMMANDS: RegisterCommand[] = [registerInit, registerValidate, registerRun, registerResume, registerRuns, registerStatus, registerLogs, registerCancel, registerSchema];
