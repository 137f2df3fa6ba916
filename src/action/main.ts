// The GitHub Action's entry (action.yml runs its bundle, action/index.cjs): @actions/core sets the exit code.
import { fileURLToPath } from 'node:url';
import { catchStopSignals } from './stop.js';

if (process.argv[2] === '--cli') {
  // The `wave` command of the action's steps: this same bundle, run as the CLI.
  process.argv.splice(2, 1);
  void import('../cli/main.js');
} else {
  // Listening before the rest of the bundle loads: a cancel this early still ends with conclusion=cancelled.
  const stop = catchStopSignals();
  void import('../engine/steps/wave-command.js')
    .then(({ useBundledCli }) => useBundledCli(fileURLToPath(import.meta.url)))
    .then(() => import('./run-action.js'))
    .then(({ runAction }) => runAction(stop));
}
