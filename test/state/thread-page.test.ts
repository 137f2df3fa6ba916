import { describe, expect, it } from 'vitest';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { DEFAULT_THREAD_BUDGET, gapLines, pageThread, renderThreadPage, type ThreadQuery } from '../../src/state/thread/thread-page.js';
import type { Round } from '../../src/state/thread/thread-rounds.js';
import { renderRound } from '../../src/state/thread/thread-view.js';

const RUN = 'hello-20240501-120000-abcd';

/** A round of step `s<n>` whose body is `size` characters ending in its own marker. */
function round(n: number, size: number, overrides: Partial<Round> = {}): Round {
  const marker = `END-OF-${n}`;
  const filler = Array.from({ length: Math.max(0, size - marker.length) }, (_, i) => String.fromCharCode(97 + ((i * 7 + n) % 26))).join('');
  return {
    stepId: `s${n}`,
    attempt: 1,
    finishedAt: `2024-05-01T12:${String(n % 60).padStart(2, '0')}:00.000Z`,
    adapter: 'shell',
    passed: true,
    exitCode: 0,
    durationMs: 10 * n,
    tokens: { ...NO_TOKENS },
    filesChanged: [],
    contracts: [],
    body: `${filler}${marker}`,
    ...overrides,
  };
}

const roundsOfSize = (count: number, size: number): Round[] => Array.from({ length: count }, (_, i) => round(i + 1, size));

/** The page and its text, as `wave thread` prints them. */
function page(rounds: readonly Round[], query: Partial<ThreadQuery> = {}) {
  const q: ThreadQuery = { runId: RUN, budget: DEFAULT_THREAD_BUDGET, ...query };
  const result = pageThread(rounds, q);
  return { page: result, text: renderThreadPage(result, q), numbers: result.shown.map((s) => s.number) };
}

/** The length of rounds `numbers` rendered whole and joined as a page joins them. */
const joinedLength = (rounds: readonly Round[], numbers: number[]) => numbers.map((n) => renderRound(n, rounds[n - 1]!)).join('\n\n').length;

describe('pageThread without --before', () => {
  it('shows the first round, then the latest rounds that fit, with the gap line and the command that loads the rest between them', () => {
    const rounds = roundsOfSize(10, 500);
    const { page: p, text, numbers } = page(rounds, { budget: 3000 });
    expect(numbers[0]).toBe(1);
    const tail = numbers.slice(1);
    expect(tail.length).toBeGreaterThanOrEqual(2);
    // The tail is contiguous and ends at the newest round.
    expect(tail).toEqual(Array.from({ length: tail.length }, (_, i) => 10 - tail.length + 1 + i));
    // The shown rounds fit; one more from the end would not have (the gap's room kept aside).
    const oldest = tail[0]!;
    expect(joinedLength(rounds, numbers)).toBeLessThanOrEqual(3000);
    expect(joinedLength(rounds, [1, oldest - 1, ...tail])).toBeGreaterThan(3000 - 160);
    expect(p.total).toBe(10);
    expect(p.gap).toEqual({ count: oldest - 2, before: oldest, command: `wave thread ${RUN} --before ${oldest} --budget 3000` });
    const gap = `... ${oldest - 2} rounds omitted (use --before ${oldest} to load) ...\nwave thread ${RUN} --before ${oldest} --budget 3000`;
    expect(gapLines(p.gap!)).toBe(gap);
    expect(text).toBe(`${[renderRound(1, rounds[0]!), gap, ...tail.map((n) => renderRound(n, rounds[n - 1]!))].join('\n\n')}\n`);
    expect(p.shown.every((s) => !s.cut)).toBe(true);
  });

  it('pins the page of ten 500-character rounds at a 3000 budget: rounds 1, 8, 9, 10 and six omitted', () => {
    const { numbers, page: p } = page(roundsOfSize(10, 500), { budget: 3000 });
    expect(numbers).toEqual([1, 8, 9, 10]);
    expect(p.gap?.count).toBe(6);
    expect(p.gap?.before).toBe(8);
  });

  it('says "1 round" for a single omitted round', () => {
    const rounds = roundsOfSize(4, 500);
    // Room for exactly rounds 1, 3 and 4 with the gap's reserve (160) and the final newline, not for round 2.
    const budget = joinedLength(rounds, [1, 3, 4]) + 161;
    const { page: p, text } = page(rounds, { budget });
    expect(p.shown.map((s) => s.number)).toEqual([1, 3, 4]);
    expect(text).toContain(`... 1 round omitted (use --before 3 to load) ...\nwave thread ${RUN} --before 3 --budget ${budget}\n`);
  });

  it('leaves the budget out of the command when it is the default', () => {
    const { page: p, text } = page(roundsOfSize(40, 500));
    expect(p.gap).toBeDefined();
    expect(p.gap!.command).toBe(`wave thread ${RUN} --before ${p.gap!.before}`);
    expect(text).not.toContain('--budget');
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
  });

  it('shows every round, without a gap, when all fit', () => {
    const rounds = roundsOfSize(3, 100);
    const { page: p, text, numbers } = page(rounds);
    expect(numbers).toEqual([1, 2, 3]);
    expect(p.gap).toBeUndefined();
    expect(text).not.toContain('omitted');
    expect(text).toBe(`${[1, 2, 3].map((n) => renderRound(n, rounds[n - 1]!)).join('\n\n')}\n`);
    expect(text.startsWith(`[#1 s1] ${rounds[0]!.finishedAt}\n---\n`)).toBe(true);
  });

  it('says so when the run has no rounds yet', () => {
    const { page: p, text } = page([]);
    expect(p).toEqual({ total: 0, shown: [] });
    expect(text).toBe(`run ${RUN} has no completed step attempts yet\n`);
  });

  it('cuts a newest round too long for the budget from the front, keeping its end and saying where the whole of it is', () => {
    const rounds = [round(1, 200), round(2, 200), round(3, 20_000, { attempt: 2 })];
    const { page: p, text, numbers } = page(rounds);
    expect(numbers).toEqual([1, 3]);
    const newest = p.shown[1]!;
    expect(newest.cut).toBe(true);
    expect(newest.text).toContain(`[… body cut to fit the budget; all of it: wave logs ${RUN} --step s3 --attempt 2]\n`);
    expect(newest.text.endsWith('END-OF-3')).toBe(true);
    expect(newest.text.startsWith(`[#3 s3] ${rounds[2]!.finishedAt}\n---\n`)).toBe(true);
    // Round 2 is left out, and the page says how to load it.
    expect(p.gap).toEqual({ count: 1, before: 3, command: `wave thread ${RUN} --before 3` });
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
    // Cut to use the budget, not to nothing.
    expect(text.length).toBeGreaterThan(DEFAULT_THREAD_BUDGET - 200);
  });

  it('cuts a first round too long for the budget and still shows the end of the newest', () => {
    const rounds = [round(1, 20_000), round(2, 300), round(3, 300), round(4, 300)];
    const { page: p, text, numbers } = page(rounds);
    expect(numbers[0]).toBe(1);
    expect(numbers.at(-1)).toBe(4);
    expect(p.shown[0]!.cut).toBe(true);
    expect(p.shown[0]!.text).toContain(`wave logs ${RUN} --step s1 --attempt 1]`);
    // The newest round's answer is on the page, whole.
    expect(text).toContain('END-OF-4');
    expect(p.shown.at(-1)!.cut).toBe(false);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
  });

  it('keeps a long first round whole when it fits beside the newest', () => {
    const { page: p, text, numbers } = page([round(1, 6000), round(2, 100)]);
    expect(numbers).toEqual([1, 2]);
    expect(p.shown.every((s) => !s.cut)).toBe(true);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
  });

  it('cuts a first round that does not fit beside the newest, and keeps the newest whole', () => {
    const rounds = [round(1, 7000), round(2, 300), round(3, 2000)];
    const { page: p, text, numbers } = page(rounds);
    expect(numbers).toEqual([1, 3]);
    expect(p.shown.map((s) => s.cut)).toEqual([true, false]);
    expect(p.shown[1]!.text).toBe(renderRound(3, rounds[2]!));
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
    // The first round is cut only as much as the newest needs.
    expect(text.length).toBeGreaterThan(DEFAULT_THREAD_BUDGET - 200);
  });

  it('splits the page between a first and a newest round that are both too long', () => {
    const { page: p, text } = page([round(1, 20_000), round(2, 20_000)]);
    expect(p.shown.map((s) => [s.number, s.cut])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(text).toContain('END-OF-1');
    expect(text).toContain('END-OF-2');
    expect(p.shown[1]!.text.length).toBeGreaterThan(DEFAULT_THREAD_BUDGET / 2 - 200);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_THREAD_BUDGET);
  });

  it('a single round longer than the budget is cut to fit it', () => {
    const { page: p, text } = page([round(1, 20_000)], { budget: 3000 });
    expect(p.shown).toHaveLength(1);
    expect(p.shown[0]!.cut).toBe(true);
    expect(text).toContain('END-OF-1');
    expect(text.length).toBeLessThanOrEqual(3000);
  });
});

describe('pageThread with --before', () => {
  it('shows the rounds before it, newest first until the budget, never round 1, with its own gap line on top', () => {
    const rounds = roundsOfSize(20, 500);
    const { page: p, text, numbers } = page(rounds, { budget: 3000, before: 15 });
    expect(numbers).not.toContain(1);
    expect(numbers.at(-1)).toBe(14);
    const oldest = numbers[0]!;
    expect(numbers).toEqual(Array.from({ length: 14 - oldest + 1 }, (_, i) => oldest + i));
    expect(joinedLength(rounds, numbers)).toBeLessThanOrEqual(3000 - 160);
    expect(joinedLength(rounds, [oldest - 1, ...numbers])).toBeGreaterThan(3000 - 160);
    expect(p.gap).toEqual({ count: oldest - 2, before: oldest, command: `wave thread ${RUN} --before ${oldest} --budget 3000` });
    // The omitted rounds are older than every shown one: the gap line comes first.
    expect(text).toBe(`${[gapLines(p.gap!), ...numbers.map((n) => renderRound(n, rounds[n - 1]!))].join('\n\n')}\n`);
    expect(text.startsWith(`... ${oldest - 2} rounds omitted (use --before ${oldest} to load) ...\n`)).toBe(true);
    expect(text.length).toBeLessThanOrEqual(3000);
  });

  it('pages back: following each gap command visits every round from 2 up exactly once', () => {
    const rounds = roundsOfSize(30, 400);
    const seen: number[] = [];
    let query: Partial<ThreadQuery> = { budget: 2500 };
    for (let i = 0; i < 30; i++) {
      const { page: p, numbers } = page(rounds, query);
      seen.push(...numbers);
      if (!p.gap) break;
      expect(p.gap.command).toBe(`wave thread ${RUN} --before ${p.gap.before} --budget 2500`);
      query = { budget: 2500, before: p.gap.before };
    }
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('shows rounds 2 to R-1 without a gap when they all fit', () => {
    const rounds = roundsOfSize(6, 100);
    const { page: p, numbers } = page(rounds, { before: 5 });
    expect(numbers).toEqual([2, 3, 4]);
    expect(p.gap).toBeUndefined();
  });

  it('before=2: nothing to show, and the page says round 1 comes without --before', () => {
    const { page: p, text } = page(roundsOfSize(5, 100), { before: 2 });
    expect(p.shown).toEqual([]);
    expect(p.gap).toBeUndefined();
    expect(text).toBe('no rounds between round 1 and round 2: round 1 is shown without --before\n');
  });

  it('cuts the newest round before R when alone it is too long, and the gap covers the rest', () => {
    const rounds = [round(1, 100), round(2, 100), round(3, 100), round(4, 20_000), round(5, 100)];
    const { page: p, text, numbers } = page(rounds, { before: 5, budget: 3000 });
    expect(numbers).toEqual([4]);
    expect(p.shown[0]!.cut).toBe(true);
    expect(p.shown[0]!.text).toContain(`wave logs ${RUN} --step s4 --attempt 1]`);
    expect(p.shown[0]!.text.endsWith('END-OF-4')).toBe(true);
    expect(p.gap).toEqual({ count: 2, before: 4, command: `wave thread ${RUN} --before 4 --budget 3000` });
    expect(text.length).toBeLessThanOrEqual(3000);
  });
});

describe('the budget', () => {
  // Sizes that make rounds land on and around the budget's edges, the first and newest rounds among them.
  const cases: Array<[string, Round[]]> = [
    ['even rounds', roundsOfSize(25, 700)],
    ['a long first round', [round(1, 12_000), ...roundsOfSize(12, 600).slice(1)]],
    ['a long newest round', [...roundsOfSize(12, 600), round(13, 16_000)]],
    ['two rounds', roundsOfSize(2, 3000)],
    ['mixed', Array.from({ length: 30 }, (_, i) => round(i + 1, [50, 900, 2600, 120, 7000][i % 5]!))],
  ];

  it.each(cases)('never prints more than the budget (%s), with or without --before', (_name, rounds) => {
    for (let budget = 1500; budget <= 9000; budget += 137) {
      for (const before of [undefined, 3, Math.ceil(rounds.length / 2) + 1, rounds.length + 1]) {
        const query = { budget, ...(before !== undefined ? { before } : {}) };
        const { text, page: p } = page(rounds, query);
        expect(text.length, `budget ${budget}, before ${before}`).toBeLessThanOrEqual(budget);
        expect((p.gap?.count ?? 0) + p.shown.length + (before === undefined ? 0 : 1) + (before === undefined ? 0 : rounds.length + 1 - before)).toBe(rounds.length);
      }
    }
  });

  it('counts the final newline: a budget of exactly the whole thread shows it all, one less cuts the newest round', () => {
    const rounds = roundsOfSize(2, 300);
    const whole = joinedLength(rounds, [1, 2]) + 1;
    const exact = page(rounds, { budget: whole });
    expect(exact.page.shown.every((s) => !s.cut)).toBe(true);
    expect(exact.text.length).toBe(whole);
    const short = page(rounds, { budget: whole - 1 });
    expect(short.numbers).toEqual([1, 2]);
    expect(short.page.shown[1]!.cut).toBe(true);
    expect(short.text.length).toBeLessThanOrEqual(whole - 1);
  });
});
