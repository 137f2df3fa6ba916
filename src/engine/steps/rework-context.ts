import type { Failure } from '../../core/errors/failure.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import type { PreparedStep } from '../workspace/step-files.js';
import type { ReworkOf } from './step-run.js';

/** How much of the failed step's last output a rework step is shown (Wave's stdout tail). */
export const REWORK_OUTPUT_CHARS = 2000;

/** What a failed step leaves its rework step to read. */
export interface FailedWork {
  /** Its last output (what its dependents would have read). */
  output: string;
  /** The end of what its last attempt printed. */
  tail: string;
  attempts: number;
  durationMs: number;
  /** Its artifacts saved before it failed. */
  artifacts: readonly string[];
}

/** The `## REWORK CONTEXT` that opens a rework step's prompt: whose work failed, how, and what it left. */
export function reworkContext(failed: AttemptStep, round: number, failure: Failure, work: FailedWork): string {
  const tail = work.tail.slice(-REWORK_OUTPUT_CHARS);
  const fence = longestFence(tail);
  return [
    '## REWORK CONTEXT',
    `The step \`${failed.id}\` failed, and this step runs to fix its work (rework round ${round}); its checks run again once this step completes.`,
    `- Attempts: ${work.attempts}, over ${Math.round(work.durationMs / 1000)} s`,
    `- Failure class: ${failure.class}`,
    `- Error: ${failure.message}`,
    ...(work.artifacts.length ? [`- Artifacts it saved: ${work.artifacts.join(', ')}`] : []),
    ...(tail.trim() ? ['', 'The end of its last output:', fence, tail, fence] : []),
    '',
    'Fix what caused this failure.',
    '',
  ].join('\n');
}

/** A rework step's prepared attempt told what failed: an agent's prompt opens with the context, every attempt gets the variables. */
export function withReworkContext(step: AttemptStep, prepared: PreparedStep, rework: ReworkOf): void {
  if (step.kind === 'agent') prepared.prompt = `${rework.context}\n${prepared.prompt}`;
  prepared.dependencyEnv = { ...prepared.dependencyEnv, ...rework.env };
}

/** What a rework command step is told, as environment variables. */
export function reworkEnv(failed: AttemptStep, round: number, failure: Failure): Record<string, string> {
  return { WAVE_REWORK_OF: failed.id, WAVE_REWORK_ROUND: String(round), WAVE_REWORK_FAILURE: `${failure.class}: ${failure.message}` };
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
function longestFence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
}
