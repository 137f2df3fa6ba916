import { quotedBlock } from '../../core/terminal-safe.js';
import { renderRound, roundBody } from './thread-view.js';
import { isWalkRound, type ThreadRound } from './walk-rounds.js';

/** `wave thread`'s default budget, in characters of output. */
export const DEFAULT_THREAD_BUDGET = 8000;

/** The smallest budget a page fits in: a round's header and frontmatter, the gap line and the command that loads the rest. */
export const MIN_THREAD_BUDGET = 1000;

const SEPARATOR = '\n\n';

export interface ThreadQuery {
  runId: string;
  budget: number;
  /** Only rounds before this one (the first round left out); absent: the first round and the latest ones. */
  before?: number;
}

export interface ShownRound {
  number: number;
  round: ThreadRound;
  text: string;
  /** The body as shown: the round's, or its end when it was cut to fit. */
  body: string;
  /** The body was cut to fit the budget. */
  cut: boolean;
}

/** Rounds the page leaves out, and how to load them. */
export interface ThreadGap {
  count: number;
  before: number;
  command: string;
}

export interface ThreadPage {
  total: number;
  shown: ShownRound[];
  gap?: ThreadGap;
}

/**
 * One page of a run's rounds within a character budget. Without `before`: the first round, then rounds from the end
 * backwards while they fit, the ones between them left out. With `before`: the rounds before it, backwards while they
 * fit, the first round left out. The newest round a page could show is always shown, its body cut if it alone is too
 * long, so a page is never empty while there are rounds.
 */
export function pageThread(rounds: readonly ThreadRound[], query: ThreadQuery): ThreadPage {
  const total = rounds.length;
  const shown: ShownRound[] = [];
  let used = 0;
  const take = (number: number, room: number): boolean => {
    const round = rounds[number - 1]!;
    const cost = used === 0 ? 0 : SEPARATOR.length;
    const text = renderRound(number, round);
    if (used + cost + text.length <= room) {
      shown.push({ number, round, text, body: roundBody(round), cut: false });
      used += cost + text.length;
      return true;
    }
    if (shown.length > (query.before === undefined ? 1 : 0)) return false;
    const cut = cutToFit(number, round, room - used - cost, query.runId);
    shown.push({ number, round, ...cut, cut: true });
    used += cost + cut.text.length;
    return false;
  };
  const newest = query.before === undefined ? total : Math.min(query.before - 1, total);
  // The final newline counts; round 1 leaves room for the newest round whole, or for half the page, so the page never overflows.
  const budget = query.budget - 1;
  // Room kept for the gap line while rounds are chosen: the longest it can be for this run and query.
  const gapReserve = SEPARATOR.length + gapLines({ count: total, before: total, command: loadCommand(query, total) }).length;
  if (query.before === undefined && total > 0) {
    const newestNeeds = total > 1 ? SEPARATOR.length + renderRound(total, rounds[total - 1]!).length : 0;
    take(1, total > 1 ? Math.max(Math.floor(budget / 2), budget - (total > 2 ? gapReserve : 0) - newestNeeds) : budget);
  }
  let oldest = newest + 1;
  for (let number = newest; number >= 2; number--) {
    const reserve = number > 2 ? gapReserve : 0;
    const fitted = take(number, budget - reserve);
    if (shown.at(-1)?.number === number) oldest = number;
    if (!fitted) break;
  }
  shown.sort((a, b) => a.number - b.number);
  const omitted = oldest - 2;
  if (omitted <= 0) return { total, shown };
  return { total, shown, gap: { count: omitted, before: oldest, command: loadCommand(query, oldest) } };
}

/** The exact command that loads the rounds before `before`, keeping a budget that is not the default. */
function loadCommand(query: ThreadQuery, before: number): string {
  const budgetFlag = query.budget === DEFAULT_THREAD_BUDGET ? '' : ` --budget ${query.budget}`;
  return `wave thread ${query.runId} --before ${before}${budgetFlag}`;
}

/** A round whose body is cut from the front to fit `room` characters, saying where the whole of it is. */
function cutToFit(number: number, round: ThreadRound, room: number, runId: string): { text: string; body: string } {
  // A gate's text is whole in its gate_resolved event; an attempt's answer in its log.
  const where = isWalkRound(round)
    ? `the ${round.stepId} gate_resolved event in events.ndjson of run ${runId}`
    : `wave logs ${runId} --step ${round.stepId} --attempt ${round.attempt}`;
  const note = `[… body cut to fit the budget; all of it: ${where}]`;
  const bare = renderRound(number, round, '', note);
  const tail = longestTail(roundBody(round).trimEnd(), room - bare.length - 1);
  return { text: renderRound(number, round, tail, note), body: `${note}\n${tail}` };
}

/** The longest end of `body` whose quoted lines take at most `room` characters (quoting adds to each line, escaping to some characters). */
function longestTail(body: string, room: number): string {
  let low = 0;
  let high = body.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (quotedBlock(body.slice(body.length - mid)).length <= room) low = mid;
    else high = mid - 1;
  }
  return body.slice(body.length - low);
}

/** The gap line, exactly as agents are told to read it, and the command that loads what it leaves out. */
export function gapLines(gap: ThreadGap): string {
  return `... ${gap.count} round${gap.count === 1 ? '' : 's'} omitted (use --before ${gap.before} to load) ...\n${gap.command}`;
}

/** A page as `wave thread` prints it: rounds in order, the gap line where rounds were left out. */
export function renderThreadPage(page: ThreadPage, query: ThreadQuery): string {
  if (page.total === 0) return `run ${query.runId} has no completed step attempts yet\n`;
  if (!page.shown.length) return `no rounds between round 1 and round ${query.before}: round 1 is shown without --before\n`;
  const blocks = page.shown.map((s) => s.text);
  if (page.gap) {
    // Without --before the gap follows the first round; with it, the omitted rounds are older than all shown.
    blocks.splice(query.before === undefined ? 1 : 0, 0, gapLines(page.gap));
  }
  return `${blocks.join(SEPARATOR)}\n`;
}
