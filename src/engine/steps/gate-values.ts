import type { GateField } from '../../plan/template-vars.js';
import type { RunRecord } from '../../state/record/run-record.js';

/**
 * `{{ gate.<step>.<field> }}`: a field of the gate step's decision as Wave names them (`choice` the label, `key` the
 * key, `timestamp` when it was decided, in RFC 3339); empty for what the decision has not; undefined before it is made.
 */
export function gateValue(record: RunRecord, stepId: string, field: GateField): string | undefined {
  const decision = record.steps[stepId]?.gate?.decision;
  if (!decision) return undefined;
  const values: Record<GateField, string | undefined> = {
    choice: decision.label,
    key: decision.key,
    text: decision.text,
    timestamp: decision.at,
    target: decision.target,
  };
  return values[field] ?? '';
}
