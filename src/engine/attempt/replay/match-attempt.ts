import { promptDiff } from './prompt-diff.js';
import type { AttemptKey, RecordedAttempt } from './recorded-attempts.js';

/** The recorded attempt that answers a key, or why none does: the first differing field and what differs. */
export type AttemptMatch = { found: RecordedAttempt } | { field: 'step' | 'attempt' | 'adapter' | 'prompt' | 'exhausted'; message: string };

/** The recorded attempts of a run, each served once: repeated identical requests take them in their recorded order. */
export class RecordedAttempts {
  private readonly left: RecordedAttempt[];

  constructor(recorded: readonly RecordedAttempt[]) {
    this.left = [...recorded];
  }

  /** The first unserved recording with the key's step, purpose, attempt, adapter and prompt (taken), or the first field that differs. */
  take(key: AttemptKey): AttemptMatch {
    const ofStep = this.left.filter((r) => r.stepId === key.stepId && r.purpose === key.purpose);
    const found = ofStep.find((r) => r.attempt === key.attempt && r.adapter === key.adapter && r.promptHash === key.promptHash);
    if (found) {
      this.left.splice(this.left.indexOf(found), 1);
      return { found };
    }
    return mismatchOf(key, ofStep);
  }
}

/** Why no recording of the step answers the key: the closest one (same attempt number first) and its first differing field. */
function mismatchOf(key: AttemptKey, ofStep: readonly RecordedAttempt[]): AttemptMatch {
  const what = key.purpose === 'step' ? `attempt ${key.attempt} of step ${key.stepId}` : `the ${key.purpose} request of step ${key.stepId}`;
  if (ofStep.length === 0) return { field: 'exhausted', message: `the recording holds no ${what} left to replay` };
  const closest = ofStep.find((r) => r.attempt === key.attempt) ?? ofStep[0]!;
  if (closest.attempt !== key.attempt) {
    return { field: 'attempt', message: `${what} differs in its attempt number: the recording's next is attempt ${closest.attempt}` };
  }
  if (closest.adapter !== key.adapter) {
    return { field: 'adapter', message: `${what} differs in its adapter: ${key.adapter}, recorded ${closest.adapter}` };
  }
  return { field: 'prompt', message: `${what} differs in its prompt:\n${promptDiff(closest.prompt, key.prompt)}` };
}
