import type { RunRecord } from '../../state/record/run-record.js';
import { letsDependentsRun } from '../../state/record/step-gate.js';
import { readStepOutput } from '../../state/step-output-file.js';

/** The outputs of a run's recorded steps (a resumed run's, other jobs' parts, a loop iteration's) whose dependents may run, read back from its folder. */
export function completedOutputs(run: { readonly record: RunRecord; readonly dir: string }): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const [id, step] of Object.entries(run.record.steps)) {
    const text = letsDependentsRun(step) ? readStepOutput(run.dir, id) : undefined;
    if (text !== undefined) outputs.set(id, text);
  }
  return outputs;
}
