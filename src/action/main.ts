// The GitHub Action's entry (action.yml runs its bundle, action/index.cjs): @actions/core sets the exit code.
import { runAction } from './run-action.js';

void runAction();
