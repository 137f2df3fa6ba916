import { EXIT } from './exit-codes.js';
import { runCli } from './program.js';

/** Exits once stdout has drained, so piped output is never cut short. */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

runCli(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`internal: ${String(error)}\n`);
  exit(EXIT.runFailed);
});
