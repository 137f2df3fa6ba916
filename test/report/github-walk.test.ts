import { describe, expect, it } from 'vitest';
import { formatGithubSummary } from '../../src/report/github/github-summary.js';
import { code } from '../../src/report/github/github-walk.js';
import { Redactor } from '../../src/redact.js';
import { foldEvents } from '../../src/state/record/apply-event.js';
import { FIX_LOOP_AND_GATE, STOPPED_AND_REJECTED, WALK_RUN } from './walk-events.js';

/** The job summary's "Gates and routes" section of a run folded from `events`; `withEvents: false` gives the summary only the record. */
function walkSection(events: typeof FIX_LOOP_AND_GATE, withEvents = true): string[] {
  const summary = formatGithubSummary(foldEvents(events)!, { redactor: new Redactor([]), runDir: '/no/such/run', ...(withEvents ? { events } : {}) });
  const start = summary.indexOf('### Gates and routes');
  expect(start).toBeGreaterThan(summary.indexOf('### Steps'));
  return summary.slice(start, summary.indexOf('\n\n###', start)).split('\n');
}

const DECISION =
  '| `approve` | `` gate `approve` resolved by a person y "Ship" → ship: LGTM <script>alert(1)</script> \\| ::error::pwned \\x1b[2J `x` …, at 2024-05-01T12:00:24.000Z `` |';

describe('the job summary’s gates and routes', () => {
  it('tells each gate’s decision (who, which choice, the first line of the text, when), each route with the visit it begins, and how often a step ran', () => {
    expect(walkSection(FIX_LOOP_AND_GATE)).toEqual([
      '### Gates and routes',
      '',
      '| Step | What happened |',
      '| --- | --- |',
      '| `fix` | ` visited 2× ` |',
      '| `test` | ` visited 2× ` |',
      '| `check` | ` → fix, outcome failure, visit 2; again: fix, test, check ` |',
      '| `check` | ` → approve (outcome=success), outcome success, visit 1 ` |',
      '| `check` | ` visited 2× ` |',
      DECISION,
      '| `approve` | ` → ship, outcome success, visit 1 ` |',
    ]);
  });

  it('keeps a person’s text inert: inside inline code, its pipe escaped, its escape shown, its second line left out', () => {
    const decision = walkSection(FIX_LOOP_AND_GATE).find((line) => line.includes('LGTM'))!;
    // One code span from the cell's start to its end: the HTML and the workflow command are shown, not read.
    expect(decision).toMatch(/^\| `approve` \| `` [^`]*`approve`[^`]*`x`[^`]* `` \|$/);
    expect(decision).not.toContain('\u001b');
    expect(decision).not.toContain('second line');
    expect(decision.split(/(?<!\\)\|/)).toHaveLength(4);
  });

  it('tells why the walk stopped, a rejection, and a gate still waiting with how to answer it', () => {
    expect(walkSection(STOPPED_AND_REJECTED).slice(4)).toEqual([
      '| `test` | ` → test (outcome=failure), outcome failure, visit 2; again: test ` |',
      '| `test` | ` → test (outcome=failure), outcome failure, visit 3; again: test ` |',
      '| `test` | ` visited 2× ` |',
      '| `test` | `` walk stopped at test: route_stopped: step `test` reached its limit of 2 visits (max_visits) `` |',
      '| `approve` | `` gate `approve` resolved by a person n "Abort" → _fail: not today, at 2024-05-01T12:00:14.000Z `` |',
      '| `approve` | `` gate `approve` failed: gate_rejected: gate `approve` was answered "Abort", which fails the run `` |',
      `| \`hold\` | \` waiting for approval: Hold on? — wave approve ${WALK_RUN} hold \\| wave reject ${WALK_RUN} hold (since 2024-05-01T12:00:17.000Z) \` |`,
    ]);
  });

  it('without the run’s events, says which step routed to each from the record', () => {
    expect(walkSection(FIX_LOOP_AND_GATE, false).slice(4)).toEqual([
      '| `fix` | ` reached by a route from check ` |',
      '| `fix` | ` visited 2× ` |',
      '| `test` | ` visited 2× ` |',
      '| `check` | ` visited 2× ` |',
      DECISION,
      '| `approve` | ` reached by a route from check ` |',
      '| `ship` | ` reached by a route from approve ` |',
    ]);
  });

  it('tells a rework: the step reworked, and its rework step', () => {
    const record = foldEvents(FIX_LOOP_AND_GATE)!;
    record.steps.test!.rework = { target: 'fix', rounds: 2, failure: { class: 'contract_failed', message: 'tests fail' } };
    record.steps.fix!.attempts[1]!.reworkOf = 'test';
    const summary = formatGithubSummary(record, { redactor: new Redactor([]), runDir: '/no/such/run', events: [] });
    expect(summary).toContain('| `test` | ` reworked by fix in 2 rounds after: contract_failed: tests fail ` |');
    expect(summary).toContain('| `fix` | ` rework of test ` |');
  });

  it('has no such section for a run without gates, routes, second visits or reworks', () => {
    const summary = formatGithubSummary(foldEvents(FIX_LOOP_AND_GATE.filter((e) => !('stepId' in e) || e.stepId === 'ship'))!, {
      redactor: new Redactor([]),
      runDir: '/no/such/run',
    });
    expect(summary).toContain('| `ship` | completed |');
    expect(summary).not.toContain('Gates and routes');
  });
});

describe('code', () => {
  it('fences text with more backticks than any run inside it, spaced so an edge backtick stays inside', () => {
    expect(code('plain')).toBe('` plain `');
    expect(code('a `b` c')).toBe('`` a `b` c ``');
    expect(code('``x')).toBe('``` ``x ```');
    expect(code('line\nbreak\u001b')).toBe('` line\\nbreak\\x1b `');
  });
});
