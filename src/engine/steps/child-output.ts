import type { RunRecord } from '../../state/record/run-record.js';

/** A child run's output as its parent step gives it: the child's one pipeline output, or all of them as a JSON object, or (none declared) its last step's output. */
export function childOutput(record: RunRecord): string {
  const outputs = Object.entries(record.outputs ?? {});
  if (outputs.length === 1) return outputs[0]![1].value ?? '';
  if (outputs.length > 1) return JSON.stringify(Object.fromEntries(outputs.map(([name, output]) => [name, parsedOrText(output.value)])));
  const last = Object.values(record.steps)
    .filter((s) => s.status === 'completed')
    .at(-1);
  return last?.output ?? '';
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
