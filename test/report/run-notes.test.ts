import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import { createTerminalSink } from '../../src/report/terminal/terminal.js';
import { describeEvent } from '../../src/report/text.js';
import { CollectingStream, terminalFrames } from './scripted-run.js';

const base = { v: EVENT_VERSION, ts: '2024-05-01T12:00:00.000Z', runId: 'notes-20240501-120000-abcd' } as const;
const WARNING: RunEvent = { ...base, type: 'budget_warning', spentUsd: 25.5, warnAtUsd: 25, ceilingUsd: 50, step: 'agent' };
const EXHAUSTED: RunEvent = { ...base, type: 'budget_exhausted', spentUsd: 50.25, ceilingUsd: 50, step: 'agent' };
const UNCHECKED: RunEvent = { ...base, type: 'token_scopes_unchecked', persona: 'analyst', scopes: ['issues:read', 'pulls:read'], reason: 'GH_TOKEN and GITHUB_TOKEN are not set' };

describe('run-wide notes: the budget and unchecked token scopes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('are one line each in the text output', () => {
    const step = (id: string) => id;
    expect(describeEvent(WARNING, step)).toBe('budget warning: the run has spent $25.50, reaching runtime.cost.warn_at $25.00 (budget_ceiling $50.00)');
    expect(describeEvent(EXHAUSTED, step)).toBe(
      'budget exhausted: the run has spent $50.25, reaching runtime.cost.budget_ceiling $50.00; no new step starts and running steps are stopped',
    );
    expect(describeEvent(UNCHECKED, step)).toBe('token scopes of persona analyst (issues:read, pulls:read) not checked: GH_TOKEN and GITHUB_TOKEN are not set');
  });

  it('stay under the footer of the live terminal view, in the order they came', () => {
    const out = new CollectingStream({ tty: true, columns: 160 });
    const sink = createTerminalSink({ out, stepIds: ['agent'], color: false, now: () => Date.parse(base.ts) });
    for (const event of [{ ...base, type: 'run_started', pipeline: 'p', steps: ['agent'], resumed: false } as RunEvent, UNCHECKED, WARNING, EXHAUSTED]) sink.handle(event);
    vi.advanceTimersByTime(150);
    const frame = terminalFrames(out.text).at(-1)!;
    expect(frame.slice(2)).toEqual([
      '  token scopes of analyst not checked',
      '  budget warning: $25.50 spent, warn_at $25.00',
      '  budget exhausted: $50.25 spent, budget_ceiling $50.00',
    ]);
    sink.close();
  });
});
