import { EXIT } from '../core/errors/exit-codes.js';
import type { CommandTable } from './commands/index.js';
import { runCli } from './program.js';

/** Exits once stdout has drained, so piped output is never cut short (a closed stdout calls back at once). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

/** Runs `wave` with the verbs of one build (the whole CLI, or one verb's own bundle) and exits with its code. */
export function startCli(commands: CommandTable): void {
  // A reader that went away (`wave run --json | head -1`, a closed terminal) must never crash a run: its
  // write errors (EPIPE, EIO) are absorbed, printing stops, and the run goes on and is recorded.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  runCli(process.argv.slice(2), commands).then(exit, (error: unknown) => {
    process.stderr.write(`internal: ${String(error)}\n`);
    exit(EXIT.runFailed);
  });
}
