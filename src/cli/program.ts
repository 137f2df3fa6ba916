import { Command, CommanderError } from 'commander';
import { WaveError, WaveErrors, formatError } from '../core/errors/errors.js';
import { safeText } from '../core/terminal-safe.js';
import type { CommandTable } from './commands/index.js';
import { EXIT, exitCodeOf, exitCodeOfAll } from '../core/errors/exit-codes.js';
import { isFileSystemError, ioErrorOf } from '../io-error.js';
import { PACKAGE_VERSION } from '../package-root.js';
import { sweepBefore } from './sweep-before.js';

/** Builds the `wave` program with the command `argv` names, or every command of the table (for help and suggestions). */
export async function buildProgram(argv: readonly string[], commands: CommandTable): Promise<Command> {
  const program = new Command('wave')
    .description('Run pipelines of AI coding agents from a YAML manifest.')
    .version(PACKAGE_VERSION, '-v, --version')
    .showSuggestionAfterError()
    // `-v` is the program's only before the command; after it, every flag is the command's (`wave replay export -m …`).
    .enablePositionalOptions()
    .exitOverride();
  program.hook('preAction', (_program, command) => sweepBefore(command.name()));
  const named = argv.find((arg) => !arg.startsWith('-'));
  const every = !(named && named in commands.verbs);
  const loaders = every ? Object.values(commands.verbs) : [commands.verbs[named]!];
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program);
  // Completion describes every other command, so it comes last and only when they are all there (help, `completion`).
  if (every && commands.describingAll) (await commands.describingAll())(program);
  return program;
}

/** Runs the CLI and returns the exit code; main() is the only place that exits. */
export async function runCli(argv: string[], commands: CommandTable): Promise<number> {
  const program = await buildProgram(argv, commands);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    return reportError(error);
  }
}

/** Prints an error the way a user should see it (never a stack trace) and returns its exit code from the one table. */
export function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    return EXIT.invalidInput;
  }
  if (error instanceof WaveErrors) {
    for (const e of error.errors) process.stderr.write(`${safeText(formatError(e))}\n`);
    return exitCodeOfAll(error.errors.map((e) => e.code));
  }
  // A full, read-only or refused disk that reached here unwrapped is still a fault of the machine, not a bug.
  const wave = error instanceof WaveError ? error : isFileSystemError(error) ? ioErrorOf(error) : undefined;
  if (wave) {
    // Messages may quote what arrived at run time (an input, a step's words): never a terminal escape.
    process.stderr.write(`${safeText(formatError(wave))}\n`);
    return exitCodeOf(wave.code);
  }
  const message = error instanceof Error ? error.message : String(error);
  // The stack is for whoever debugs Wave, on request; a user sees one line.
  const stack = process.env.WAVE_DEBUG && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  process.stderr.write(`internal: ${message}\n  hint: This is a bug in Wave; please report it (WAVE_DEBUG=1 prints the stack trace).${stack}\n`);
  return exitCodeOf('internal');
}
