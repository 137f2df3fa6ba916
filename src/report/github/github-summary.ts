import { join } from 'node:path';
import type { RunEvent } from '../../events.js';
import { readEventsFile } from '../../state/events-file.js';
import type { RunRecord, StepRecord } from '../../state/record/run-record.js';
import { EVENTS_FILE } from '../../state/run-store.js';
import type { TextRedactor } from '../../state/redact-values.js';
import { deliverablesMarkdown } from '../deliverables.js';
import { describeFailure } from '../describe.js';
import { resultsMarkdown } from '../step-results.js';
import { formatCost, formatDuration, formatTokens } from '../format.js';
import { hasTokens } from '../../core/models/tokens.js';
import { walkMarkdown } from './github-walk.js';
import { attemptsText } from '../simulated-text.js';
import { replayCounts } from '../../state/record/replayed-count.js';
import { simulatedAttempts } from '../../state/record/simulated-count.js';

/** GitHub refuses a job summary over 1 MiB; the margin leaves room for the note that says where it was cut. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 1024;

export interface GithubSummaryOptions {
  redactor: TextRedactor;
  /** The folder shown as where the run is recorded. */
  runDir: string;
  maxBytes?: number;
  /**
   * How a failed run is finished: `wave-resume` (the default) names `wave resume` and the run folder; `action` says
   * what is true after the Action's job, whose runner and run folder are gone; `compiled` is a compiled workflow's
   * run, whose failed jobs GitHub re-runs with the parts the passing ones uploaded.
   */
  resume?: 'wave-resume' | 'action' | 'compiled';
  /** The run's events, for the routes its walk took; absent: read from events.ndjson in runDir (none there: none shown). */
  events?: readonly RunEvent[];
}

/** The job summary of a run in Markdown: steps table, gates and routes, timeline, contracts, step results, totals, how to resume; redacted and capped. */
export function formatGithubSummary(record: RunRecord, options: GithubSummaryOptions): string {
  const steps = Object.values(record.steps);
  const sections = [
    `## Wave run \`${record.id}\`: ${record.pipeline} ${record.status}`,
    stepsTable(steps),
    walkMarkdown(record, options.events ?? readEventsFile(join(options.runDir, EVENTS_FILE)), row),
    timeline(steps),
    contractsTable(steps),
    resultsMarkdown(record, options.runDir),
    deliverablesMarkdown(record),
    totals(record, options),
  ];
  return capBytes(options.redactor.redact(sections.filter(Boolean).join('\n\n') + '\n'), options.maxBytes ?? SUMMARY_MAX_BYTES);
}

function stepsTable(steps: StepRecord[]): string {
  const rows = steps.map((s) =>
    row([
      `\`${s.id}\``,
      s.simulated ? `${s.status} (simulated)` : s.replayed ? `${s.status} (replayed)` : s.status,
      s.durationMs === undefined ? '' : formatDuration(s.durationMs),
      hasTokens(s.tokens) ? formatTokens(s.tokens) : '',
      s.costUsd === undefined ? '' : formatCost(s.costUsd),
      s.failure && s.status !== 'completed' ? describeFailure(s.failure) : (s.skipReason ?? ''),
      String(s.attempts.length),
    ]),
  );
  return ['### Steps', '', row(['Step', 'Status', 'Duration', 'Tokens', 'Cost', 'Failure', 'Attempts']), row(Array<string>(7).fill('---')), ...rows].join('\n');
}

/** A Mermaid gantt of when each step ran; steps that never started are left out. */
function timeline(steps: StepRecord[]): string {
  const ran = steps.filter((s) => s.startedAt && !Number.isNaN(Date.parse(s.startedAt)));
  if (ran.length === 0) return '';
  const tasks = ran.map((s, i) => {
    const start = Date.parse(s.startedAt!);
    const end = s.finishedAt ? Date.parse(s.finishedAt) : start + (s.durationMs ?? 0);
    const tag = s.status === 'failed' ? 'crit, ' : s.status === 'completed' ? 'done, ' : 'active, ';
    // Mermaid reads `:` and `#` as syntax, and a zero-length task is not drawn.
    return `    ${s.id.replace(/[:#;]/g, '_')} :${tag}s${i}, ${start}, ${Math.max(end, start + 1)}`;
  });
  return ['### Timeline', '', '```mermaid', 'gantt', '    dateFormat x', '    axisFormat %M:%S', '    section steps', ...tasks, '```'].join('\n');
}

function contractsTable(steps: StepRecord[]): string {
  const rows = steps.flatMap((s) => s.contracts.map((c) => row([`\`${s.id}\``, c.contract, String(c.attempt), c.passed ? 'passed' : 'failed', c.action, c.errors.join('; ')])));
  if (rows.length === 0) return '';
  return ['### Contracts', '', row(['Step', 'Contract', 'Attempt', 'Result', 'Action', 'Errors']), row(Array<string>(6).fill('---')), ...rows].join('\n');
}

function totals(record: RunRecord, options: GithubSummaryOptions): string {
  const lines = [
    '### Totals',
    '',
    `- Duration: ${record.durationMs === undefined ? 'unknown' : formatDuration(record.durationMs)}`,
    `- Tokens: ${record.tokens.input} input, ${record.tokens.output} output, ${record.tokens.cacheRead} cache read, ${record.tokens.cacheWrite} cache write`,
    `- Cost: ${record.costUsd === undefined ? 'not priced' : formatCost(record.costUsd)}`,
  ];
  if (record.options.simulate) lines.push(`- Simulated (\`wave run --simulate\`): ${attemptsText(simulatedAttempts(record))} answered without an agent or a model`);
  const replayed = replayCounts(record);
  if (replayed) lines.push(`- Replayed (\`wave replay\`): ${attemptsText(replayed.replayed)} served from the recording, ${attemptsText(replayed.live)} live`);
  const unfinished = record.status === 'failed' || record.status === 'cancelled';
  if (options.resume === 'action')
    return [...lines, `- Run id: \`${record.id}\` (the \`run-id\` output; its folder is the \`run-dir\` output)`, ...(unfinished ? actionRerun(record.id) : [])].join('\n');
  lines.push(`- Run id: \`${record.id}\`, recorded in \`${options.runDir}\``);
  if (unfinished) lines.push(options.resume === 'compiled' ? `- Run it again: ${COMPILED_RERUN}` : `- Resume with: \`wave resume ${record.id}\``);
  return lines.join('\n');
}

/** How to finish a compiled workflow's run: its steps' jobs, not `wave resume`. */
export const COMPILED_RERUN = "Re-run failed jobs on the workflow run's page: the failed steps' jobs and those after them run again, with the parts the passing jobs uploaded.";

/** How to finish a run of the Action: its runner, with the run folder and the workspaces, is gone once the job ends. */
function actionRerun(runId: string): string[] {
  return [
    '',
    '### Running it again',
    '',
    '- On GitHub: **Re-run jobs › Re-run failed jobs**. The pipeline runs again from its first step, as a new run: the runner that held this run’s folder is gone.',
    `- \`wave resume ${runId}\` does not apply here: it needs the run’s folder and checkout at the paths the run used on the runner.`,
    `- To read the run afterwards, have the workflow upload the \`run-dir\` output with actions/upload-artifact (the Action uploads nothing itself), then download it into \`.wave/runs/${runId}/\` of a checkout and use \`wave logs ${runId}\` or \`wave status ${runId}\`.`,
  ];
}

/** A Markdown table row; pipes and newlines inside a cell would break the table. */
function row(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')).join(' | ')} |`;
}

/** The text cut at a line end to fit maxBytes, with a note saying so (and a code block left open closed). */
function capBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const note = '\n_The summary was cut here: it passed GitHub’s 1 MiB limit. The run folder holds the whole record._\n';
  const budget = maxBytes - Buffer.byteLength(note) - 8;
  let cut = Buffer.from(text).subarray(0, Math.max(0, budget)).toString('utf8');
  // A partly decoded last character and the partial last line go.
  cut = cut.slice(0, Math.max(0, cut.lastIndexOf('\n')));
  const openFence = (cut.match(/^```/gm)?.length ?? 0) % 2 === 1;
  return `${cut}${openFence ? '\n```' : ''}\n${note}`;
}
