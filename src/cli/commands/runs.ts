import type { Command } from 'commander';
import { positiveInteger } from '../run-options.js';
import { formatDateTime, formatDuration } from '../../report/format.js';
import { isProcessAlive } from '../../process/liveness.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';

interface RunsOptions {
  manifest?: string;
  json?: boolean;
  limit: number;
}

/** `wave runs`: the recorded runs of a manifest, newest first. */
export function registerRuns(program: Command): void {
  program
    .command('runs')
    .description('List recent runs, newest first.')
    .option('-m, --manifest <file>', 'the manifest whose runs to list (default: the nearest wave.yaml, else this folder)')
    .option('--json', 'print the runs as a JSON array')
    .option('--limit <n>', 'how many runs to show', positiveInteger('--limit'), 20)
    .action((options: RunsOptions) => {
      const runsRoot = findRunsRoot(process.cwd(), options.manifest);
      const runs = RunStore.list(runsRoot).slice(0, options.limit).map(summarizeRun);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      } else if (runs.length === 0) {
        process.stdout.write(`No runs yet in ${runsRoot}.\n`);
      } else {
        process.stdout.write(formatRunsTable(runs));
      }
    });
}

/** One run as `wave runs` shows it. */
export interface RunListing {
  id: string;
  pipeline: string;
  /** run.json's status, except `interrupted` for a running run whose process is gone. */
  status: RunRecord['status'] | 'interrupted';
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  stepsDone: number;
  stepsTotal: number;
  /** The run whose step started this one (a child run). */
  parentId?: string;
}

function summarizeRun(record: RunRecord): RunListing {
  const steps = Object.values(record.steps);
  return {
    id: record.id,
    pipeline: record.pipeline,
    status: record.status === 'running' && !isProcessAlive(record.pid) ? 'interrupted' : record.status,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt ?? null,
    durationMs: record.durationMs ?? null,
    stepsDone: steps.filter((s) => s.status === 'completed').length,
    stepsTotal: steps.length,
    ...(typeof record.parentId === 'string' ? { parentId: record.parentId } : {}),
  };
}

/** The runs in table order: each run listed is followed by its child runs (newest first), one level deeper each; a child whose parent is not listed stands on its own. */
function nestedRuns(runs: readonly RunListing[]): { run: RunListing; depth: number }[] {
  const listed = new Set(runs.map((run) => run.id));
  const childrenOf = new Map<string, RunListing[]>();
  for (const run of runs) if (run.parentId !== undefined && listed.has(run.parentId)) childrenOf.set(run.parentId, [...(childrenOf.get(run.parentId) ?? []), run]);
  const ordered: { run: RunListing; depth: number }[] = [];
  const seen = new Set<string>();
  const add = (run: RunListing, depth: number): void => {
    // A record naming itself (or a loop of them) as parent is shown once.
    if (seen.has(run.id)) return;
    seen.add(run.id);
    ordered.push({ run, depth });
    for (const child of childrenOf.get(run.id) ?? []) add(child, depth + 1);
  };
  for (const run of runs) if (run.parentId === undefined || !listed.has(run.parentId)) add(run, 0);
  // Runs only reachable through a loop of parents.
  for (const run of runs) add(run, 0);
  return ordered;
}

function formatRunsTable(runs: RunListing[]): string {
  const rows = nestedRuns(runs).map(({ run, depth }) => [
    `${'  '.repeat(depth)}${run.id}`,
    run.pipeline,
    run.status,
    formatDateTime(run.startedAt),
    run.durationMs === null ? (run.status === 'running' ? 'running' : '-') : formatDuration(run.durationMs),
    `${run.stepsDone}/${run.stepsTotal}`,
  ]);
  const header = ['ID', 'PIPELINE', 'STATUS', 'STARTED', 'DURATION', 'STEPS'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
