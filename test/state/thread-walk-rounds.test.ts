import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pageThread, renderThreadPage, type ThreadQuery } from '../../src/state/thread/thread-page.js';
import { roundsOf } from '../../src/state/thread/thread-rounds.js';
import { renderRound, threadFields } from '../../src/state/thread/thread-view.js';
import { threadRoundsOf, type ThreadRound } from '../../src/state/thread/walk-rounds.js';
import { FIX_LOOP_AND_GATE, HOSTILE_TEXT, STOPPED_AND_REJECTED, WALK_RUN } from '../report/walk-events.js';

/** Each round as `<step> <kind>`, a step attempt's kind being `attempt <n>`. */
const kinds = (rounds: readonly ThreadRound[]) => rounds.map((r) => `${r.stepId} ${'kind' in r ? r.kind : `attempt ${r.attempt}`}`);

/** The lines of a rendered round after its frontmatter. */
const afterFrontmatter = (text: string) => text.split('\n').slice(text.split('\n').indexOf('---', 2) + 1);

describe('threadRoundsOf', () => {
  it('puts gate decisions among the attempts in the order they happened; a route joins its step’s round, or is a round of its own', () => {
    const rounds = threadRoundsOf(FIX_LOOP_AND_GATE);
    expect(kinds(rounds)).toEqual(['fix attempt 1', 'test attempt 1', 'check route', 'fix attempt 2', 'test attempt 2', 'check route', 'approve gate', 'ship attempt 1']);
    expect(rounds[2]).toMatchObject({ route: { target: 'fix', outcome: 'failure', visit: 2, requeued: ['fix', 'test', 'check'] } });
    expect(rounds[6]).toMatchObject({ decision: { by: 'person', key: 'y', text: HOSTILE_TEXT }, route: { target: 'ship', visit: 1 } });
    // The rounds of the attempts are roundsOf's, which a thread step's context reads unchanged.
    expect(rounds.filter((r) => !('kind' in r)).map((r) => ({ ...r, route: undefined }))).toEqual(roundsOf(FIX_LOOP_AND_GATE).map((r) => ({ ...r, route: undefined })));
  });

  it('tells a route in the round of the attempt it followed, the stop of the walk, and a rejection in its decision’s round; a waiting gate has none yet', () => {
    const rounds = threadRoundsOf(STOPPED_AND_REJECTED);
    expect(kinds(rounds)).toEqual(['test attempt 1', 'test attempt 2', 'test stop', 'approve gate']);
    expect(rounds.map((r) => ('route' in r ? r.route?.visit : undefined))).toEqual([2, 3, undefined, undefined]);
    expect(rounds[3]).toMatchObject({ decision: { key: 'n', target: '_fail' }, failure: { class: 'gate_rejected' } });
  });
});

describe('a walk round as `wave thread` shows it', () => {
  it('a gate: its fields, Wave’s line of the decision (one line, escaped) and where it went, the person’s text quoted below', () => {
    const gate = threadRoundsOf(FIX_LOOP_AND_GATE)[6]!;
    const text = renderRound(7, gate);
    expect(text.split('\n')[0]).toBe('[#7 approve] 2024-05-01T12:00:24.000Z');
    expect(parse(text.split('---\n')[1]!)).toEqual(threadFields(gate));
    expect(threadFields(gate)).toEqual({
      kind: 'gate',
      gate: 'approval',
      status: 'resolved',
      resolved_by: 'person',
      choice: { key: 'y', label: 'Ship', target: 'ship' },
      routed: { to: 'ship', outcome: 'success', visit: 1 },
    });
    expect(afterFrontmatter(text)).toEqual([
      'gate `approve` resolved by a person y "Ship" → ship: LGTM <script>alert(1)</script> | ::error::pwned \\x1b[2J `x` …, at 2024-05-01T12:00:24.000Z',
      'routed from approve → ship, outcome success, visit 1',
      '> LGTM <script>alert(1)</script> | ::error::pwned \\x1b[2J `x`',
      '> ::error::second line',
    ]);
  });

  it('a route after an attempt, a route of its own and a stop: fields and Wave’s line', () => {
    const [first, , stop] = threadRoundsOf(STOPPED_AND_REJECTED);
    expect(threadFields(first!)).toMatchObject({ status: 'failed', routed: { to: 'test', outcome: 'failure', when: 'outcome=failure', visit: 2, again: ['test'] } });
    expect(afterFrontmatter(renderRound(1, first!))).toEqual(['routed from test → test (outcome=failure), outcome failure, visit 2; again: test', '> run 1']);
    const check = threadRoundsOf(FIX_LOOP_AND_GATE)[2]!;
    expect(threadFields(check)).toEqual({ kind: 'route', routed: { to: 'fix', outcome: 'failure', visit: 2, again: ['fix', 'test', 'check'] } });
    expect(afterFrontmatter(renderRound(3, check))).toEqual(['routed from check → fix, outcome failure, visit 2; again: fix, test, check']);
    expect(threadFields(stop!)).toEqual({ kind: 'stop', failure: { class: 'route_stopped', message: 'step `test` reached its limit of 2 visits (max_visits)' } });
    expect(afterFrontmatter(renderRound(3, stop!))).toEqual(['walk stopped at test: route_stopped: step `test` reached its limit of 2 visits (max_visits)']);
  });

  it('counts the walk’s lines against the budget: no page passes it, and a gate’s long text is cut from the front, saying where it is whole', () => {
    const long = FIX_LOOP_AND_GATE.map((e) => (e.type === 'gate_resolved' ? { ...e, text: `${'words '.repeat(400)}THE END` } : e));
    const rounds = threadRoundsOf(long);
    for (let budget = 1000; budget <= 6000; budget += 97) {
      for (const before of [undefined, 5, 8, 9]) {
        const query: ThreadQuery = { runId: WALK_RUN, budget, ...(before !== undefined ? { before } : {}) };
        const text = renderThreadPage(pageThread(rounds, query), query);
        expect(text.length, `budget ${budget}, before ${before}`).toBeLessThanOrEqual(budget);
      }
    }
    const query: ThreadQuery = { runId: WALK_RUN, budget: 1200, before: 8 };
    const page = pageThread(rounds, query);
    expect(page.shown.map((s) => [s.number, s.cut])).toEqual([[7, true]]);
    expect(page.shown[0]!.text).toContain(`[… body cut to fit the budget; all of it: the approve gate_resolved event in events.ndjson of run ${WALK_RUN}]`);
    expect(page.shown[0]!.text).toMatch(/THE END$/);
    expect(page.shown[0]!.text).toContain('gate `approve` resolved by a person');
  });
});
