import { EXIT } from '../core/errors/exit-codes.js';
import { runCli } from './program.js';

// A reader that went away (`wave run --json | head -1`, a closed terminal) must never crash a run: its
// write errors (EPIPE, EIO) are absorbed, printing stops, and the run goes on and is recorded.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

/** Exits once stdout has drained, so piped output is never cut short (a closed stdout calls back at once). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

runCli(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`internal: ${String(error)}\n`);
  exit(EXIT.runFailed);
});
