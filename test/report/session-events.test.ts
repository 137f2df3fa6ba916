import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { describeEvent } from '../../src/report/text.js';

const base = { v: 1, ts: '2024-05-01T12:00:00.000Z', runId: 'r' } as const;

describe('session events in the text sink', () => {
  it('says which session a retry continues, and why one starts fresh', () => {
    const continued: RunEvent = { ...base, type: 'session_continued', stepId: 'work', attempt: 2, sessionId: 'ses-1', from: 1 };
    const fresh: RunEvent = { ...base, type: 'session_fresh', stepId: 'work', attempt: 3, reason: 'attempt 2 could not resume session ses-1: Session not found' };
    expect(describeEvent(continued, (id) => id)).toBe('work continuing session ses-1 of attempt 1');
    expect(describeEvent(fresh, (id) => id)).toBe('work starting a fresh session: attempt 2 could not resume session ses-1: Session not found');
  });
});
