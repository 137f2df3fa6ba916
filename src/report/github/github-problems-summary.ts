import type { WaveError } from '../../core/errors/errors.js';

/** A problem as the job summary shows it: its location is from the repository root. */
export interface SummaryProblem {
  code: string;
  message: string;
  hint?: string;
  /** `file:line:col`, or only as much of it as is known. */
  where?: string;
}

/** The job summary of a run that could not start: each problem with what was wrong, where, and the hint. */
export function formatProblemsSummary(problems: readonly SummaryProblem[]): string {
  const heading = `## Wave: the run did not start (${problems.length === 1 ? 'a problem' : `${problems.length} problems`} in its inputs or files)`;
  const sections = problems.map((p) =>
    [`### \`${p.code}\`${p.where ? ` at ${codeSpan(p.where)}` : ''}`, '', ...fenced(p.message), ...(p.hint ? ['', `**Hint:** ${p.hint.replace(/\r?\n/g, ' ')}`] : [])].join('\n'),
  );
  return `${[heading, ...sections].join('\n\n')}\n`;
}

/** The job summary of a fault inside Wave (not the user's input): its message, and where to report it. */
export function formatFaultSummary(message: string): string {
  return ['## Wave: internal error', '', ...fenced(message), '', 'The job log holds its stack trace.', ''].join('\n');
}

/** The problems of a WaveError or WaveErrors, with locations turned by `where` (a path from the repository root). */
export function summaryProblems(errors: readonly WaveError[], where: (error: WaveError) => string | undefined): SummaryProblem[] {
  return errors.map((e) => ({ code: e.code, message: e.message, hint: e.hint, where: where(e) }));
}

/** Text in a fenced block no line of it can close: the fence is longer than any run of tildes inside. */
function fenced(text: string): string[] {
  const longest = Math.max(0, ...(text.match(/~+/g) ?? []).map((run) => run.length));
  const fence = '~'.repeat(Math.max(3, longest + 1));
  return [fence, text.trimEnd(), fence];
}

/** Text as inline code, delimited by more backticks than any run inside it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const line = text.replace(/\r?\n/g, ' ');
  // A backtick at either end would join the delimiter: a space on both sides keeps it apart (and is not shown).
  return /^`|`$/.test(line) ? `${ticks} ${line} ${ticks}` : `${ticks}${line}${ticks}`;
}
