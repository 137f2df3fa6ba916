import type { RunRecord } from '../../state/record/run-record.js';
import { readStepOutput } from '../../state/step-output-file.js';

/**
 * A child run's output as its parent step gives it: the child's one pipeline output, or all of them as a JSON object,
 * or (none declared) its last completed step's output, read from the child's run folder.
 */
export function childOutput(child: { readonly record: RunRecord; readonly dir: string }): string {
  const outputs = Object.entries(child.record.outputs ?? {});
  if (outputs.length === 1) return outputs[0]![1].value ?? '';
  if (outputs.length > 1) return JSON.stringify(Object.fromEntries(outputs.map(([name, output]) => [name, parsedOrText(output.value)])));
  const last = Object.values(child.record.steps)
    .filter((s) => s.status === 'completed')
    .at(-1);
  return (last && readStepOutput(child.dir, last.id)) ?? '';
}

/** A JSON value when the text is JSON, else the text; null for none. */
export function parsedOrText(value: string | undefined): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
