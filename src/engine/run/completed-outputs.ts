import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../state/record/run-record.js';
import { letsDependentsRun } from '../../state/record/step-gate.js';

/** The outputs of a run's recorded steps (a resumed run's, other jobs' parts, a loop iteration's) whose dependents may run, read back from its folder. */
export function completedOutputs(run: { readonly record: RunRecord; readonly dir: string }): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const [id, step] of Object.entries(run.record.steps)) {
    const file = join(run.dir, 'steps', id, 'output.txt');
    if (letsDependentsRun(step) && existsSync(file)) outputs.set(id, readFileSync(file, 'utf8'));
  }
  return outputs;
}
