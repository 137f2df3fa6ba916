import { Command, CommanderError } from 'commander';
import { WaveError, WaveErrors, formatError } from '../errors.js';
import { COMMANDS } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import { PACKAGE_VERSION } from '../package-root.js';


/** Builds the `wave` program with the command `argv` names, or every command (for help and suggestions). */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('wave')
    .description('Run pipelines of AI coding agents from a YAML manifest.')
    .version(PACKAGE_VERSION, '-v, --version')
    .showSuggestionAfterError()
    .exitOverride();
  const named = argv.find((arg) => !arg.startsWith('-'));
  const loaders = named && named in COMMANDS ? [COMMANDS[named]!] : Object.values(COMMANDS);
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program);
  return program;
}

/** Runs the CLI and returns the exit code; main() is the only place that exits. */
export async function runCli(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    return EXIT.invalidInput;
  }
  if (error instanceof WaveErrors) {
    for (const e of error.errors) process.stderr.write(`${formatError(e)}\n`);
    return EXIT.invalidInput;
  }
  if (error instanceof WaveError) {
    process.stderr.write(`${formatError(error)}\n`);
    return error.code === 'aborted' ? EXIT.interrupted : EXIT.invalidInput;
  }
  process.stderr.write(`internal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.runFailed;
}

