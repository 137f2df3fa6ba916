import { isRecord } from '../load/value-path.js';
import type { Step } from './pipeline-schema.js';

/** Wave's command step: `type: command`, or a non-empty `script` (Wave's rule, executor_steps.go). */
export function isScriptStep(step: { type?: unknown; script?: unknown }): boolean {
  return step.type === 'command' || (typeof step.script === 'string' && step.script !== '');
}

/** What a step runs, Wave's `script` form as our `exec: { type: command }`: its script when it has one, else its `exec`. */
export function execOf(step: Step): NonNullable<Step['exec']> {
  if (step.script) return { type: 'command', source: step.script };
  if (step.type === 'command') return { ...step.exec, type: 'command' };
  return step.exec ?? {};
}

/** Whether a step as written (before the schema check) runs a command: `exec.type: command`, or Wave's script form. */
export function runsCommand(step: Record<string, unknown>): boolean {
  return (isRecord(step.exec) && step.exec.type === 'command') || isScriptStep(step);
}
