import type { Failure } from '../../core/errors/failure.js';
import type { FileChange } from '../../core/file-change.js';
import type { TokenUsage } from '../../core/models/tokens.js';
import type { RouteOutcome, RunEvent } from '../../events.js';

/** A contract's verdict on the attempt. */
export interface RoundContract {
  contract: string;
  passed: boolean;
  errors: string[];
}

/** One completed step attempt of a run: what `wave thread` pages through and what a thread's later steps read. */
export interface Round {
  stepId: string;
  attempt: number;
  /** When the attempt ended (ISO 8601). */
  finishedAt: string;
  persona?: string;
  adapter: string;
  model?: string;
  passed: boolean;
  exitCode: number | null;
  failure?: Failure;
  durationMs: number;
  tokens: TokenUsage;
  costUsd?: number;
  filesChanged: FileChange[];
  contracts: RoundContract[];
  /** The fields of the step's JSON output, when it has one. */
  output?: Record<string, unknown>;
  /** The agent's final answer, or the command's output tail. */
  body: string;
  /** Where the walk went from the step after this attempt (`wave thread` only; see walk-rounds.ts). */
  route?: RouteNote;
}

/** Where the walk went from a step (a step_routed event), and the visit it begins at its target (absent for `_complete`). */
export interface RouteNote {
  target: string;
  outcome: RouteOutcome;
  when?: string;
  requeued: string[];
  visit?: number;
}

/** The run's completed attempts in the order they ended, each with the file changes and contract verdicts recorded before its end. */
export function roundsOf(events: readonly RunEvent[]): Round[] {
  const pending = new Map<string, { filesChanged: FileChange[]; contracts: RoundContract[] }>();
  const partsOf = (stepId: string, attempt: number) => {
    const key = `${stepId}\0${attempt}`;
    let parts = pending.get(key);
    if (!parts) pending.set(key, (parts = { filesChanged: [], contracts: [] }));
    return parts;
  };
  const rounds: Round[] = [];
  for (const event of events) {
    if (event.type === 'file_change') {
      const { path, change, added, removed, binary } = event;
      partsOf(event.stepId, event.attempt).filesChanged.push({
        path,
        change,
        ...(added !== undefined ? { added } : {}),
        ...(removed !== undefined ? { removed } : {}),
        ...(binary ? { binary } : {}),
      });
    } else if (event.type === 'contract_checked') {
      partsOf(event.stepId, event.attempt).contracts.push({ contract: event.contract, passed: event.passed, errors: event.errors });
    } else if (event.type === 'attempt_finished') {
      const parts = partsOf(event.stepId, event.attempt);
      pending.delete(`${event.stepId}\0${event.attempt}`);
      rounds.push({
        stepId: event.stepId,
        attempt: event.attempt,
        finishedAt: event.ts,
        ...(event.persona !== undefined ? { persona: event.persona } : {}),
        adapter: event.adapter,
        ...(event.model !== undefined ? { model: event.model } : {}),
        passed: event.passed,
        exitCode: event.exitCode,
        ...(event.failure ? { failure: event.failure } : {}),
        durationMs: event.durationMs,
        tokens: event.tokens,
        ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
        ...parts,
        ...(event.output ? { output: event.output } : {}),
        body: event.text,
      });
    }
  }
  return rounds;
}
