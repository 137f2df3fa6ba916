// The GitHub Action's entry (action.yml runs its bundle, action/index.cjs): @actions/core sets the exit code.
import { catchStopSignals } from './stop.js';

// Listening before the rest of the bundle loads: a cancel this early still ends with conclusion=cancelled.
const stop = catchStopSignals();
void import('./run-action.js').then(({ runAction }) => runAction(stop));
