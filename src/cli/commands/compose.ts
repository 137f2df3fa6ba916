import type { Command } from 'commander';
import { composeRun } from '../../app/compose-run.js';
import { runRequestOf, withRunFlags, type RunFlags } from '../run-flags.js';

interface ComposeFlags extends RunFlags {
  parallel?: boolean;
  validateOnly?: boolean;
}

/** `wave compose A B [-- C D]`: runs pipelines in stages, each later one able to inject the earlier ones' artifacts. */
export function registerCompose(program: Command): void {
  const command = program
    .command('compose')
    .description('Run pipelines one after another (or in stages side by side), each handed the artifacts of the ones before.')
    .argument('<pipelines...>', 'pipeline files or names, in the order they run; with --parallel, `--` separates the stages (options go before it)')
    .option('--parallel', 'run the pipelines of a stage side by side; `--` separates the stages (A B -- C: A and B, then C)')
    .option('--validate-only', 'check what each pipeline hands the later ones, and run nothing');
  withRunFlags(command).action(async (pipelines: string[], flags: ComposeFlags, self: Command) => {
    const outcome = await composeRun({
      ...runRequestOf(flags, process.cwd()),
      operands: withStageMarks(pipelines, rawArgsOf(self)),
      parallel: flags.parallel ?? false,
      validateOnly: flags.validateOnly ?? false,
      out: process.stdout,
    });
    if (outcome) process.exitCode = outcome.exitCode;
  });
}

/** The words the program was given: commander keeps them, untyped, on the program. */
function rawArgsOf(command: Command): readonly string[] {
  return (command.parent as { rawArgs?: string[] } | null)?.rawArgs ?? [];
}

/** The operands with the first `--` put back (commander takes it as the end of the options; later ones stay operands). */
function withStageMarks(operands: readonly string[], rawArgs: readonly string[]): string[] {
  const dash = rawArgs.indexOf('--');
  if (dash < 0) return [...operands];
  const after = rawArgs.length - dash - 1;
  return [...operands.slice(0, operands.length - after), '--', ...operands.slice(operands.length - after)];
}
