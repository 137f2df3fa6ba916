import type { Command } from 'commander';
import { basename, join } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { readEventsFile } from '../../state/events-file.js';
import { EVENTS_FILE, RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { DEFAULT_THREAD_BUDGET, MIN_THREAD_BUDGET, pageThread, renderThreadPage, type ThreadPage, type ThreadQuery } from '../../state/thread/thread-page.js';
import { threadFields } from '../../state/thread/thread-view.js';
import { threadRoundsOf } from '../../state/thread/walk-rounds.js';
import { positiveInteger } from '../run-options.js';

interface ThreadOptions {
  budget: number;
  before?: number;
  json?: boolean;
  manifest?: string;
}

/** `wave thread [run]`: a run's completed step attempts, gate decisions, routes and stops as numbered rounds, paged within a character budget (for agents, too). */
export function registerThread(program: Command): void {
  program
    .command('thread')
    .description("Print a run's completed step attempts, gate decisions and routes as rounds within a budget: the first and the latest, and the command to load the rest.")
    .argument('[run]', 'a run id, or a unique prefix of one (default: $WAVE_RUN_ID, set in every step)')
    .option(
      '--budget <chars>',
      `characters of output at most (default ${DEFAULT_THREAD_BUDGET}, at least ${MIN_THREAD_BUDGET})`,
      positiveInteger('--budget', MIN_THREAD_BUDGET, "a round's header and frontmatter and the command that loads the rest take that much"),
      DEFAULT_THREAD_BUDGET,
    )
    .option('--before <round>', 'the rounds before this one, newest first until the budget, without round 1', positiveInteger('--before'))
    .option('--json', 'print the page as JSON')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .action((runArg: string | undefined, options: ThreadOptions) => {
      const { runId, dir } = locateRun(runArg, options.manifest);
      const rounds = threadRoundsOf(readEventsFile(join(dir, EVENTS_FILE)));
      if (options.before !== undefined && (options.before < 2 || options.before > rounds.length + 1)) {
        throw new WaveError('invalid_argument', `--before ${options.before} is not a round of run ${runId}`, {
          hint: rounds.length ? `Its rounds are 1 to ${rounds.length}; --before takes 2 to ${rounds.length + 1}.` : 'It has no completed step attempts yet.',
        });
      }
      const query: ThreadQuery = { runId, budget: options.budget, ...(options.before !== undefined ? { before: options.before } : {}) };
      const page = pageThread(rounds, query);
      // The text page quotes each body and escapes control characters; --json keeps the data exact.
      process.stdout.write(options.json ? `${JSON.stringify(pageJson(page, query), null, 2)}\n` : renderThreadPage(page, query));
    });
}

/** The run's folder: the one a step was given ($WAVE_RUN_DIR, the only one visible inside a sandbox), else found from the manifest. */
function locateRun(runArg: string | undefined, manifest: string | undefined): { runId: string; dir: string } {
  const runId = runArg ?? process.env.WAVE_RUN_ID;
  if (!runId) throw new WaveError('invalid_argument', 'name a run', { hint: 'Pass its id (`wave runs` lists them); inside a step, $WAVE_RUN_ID holds it.' });
  const given = process.env.WAVE_RUN_DIR;
  if (given && basename(given) === runId && !manifest) return { runId, dir: given };
  const store = RunStore.open(findRunsRoot(process.cwd(), manifest), runId);
  return { runId: store.record.id, dir: store.dir };
}

function pageJson(page: ThreadPage, query: ThreadQuery): Record<string, unknown> {
  return {
    run: query.runId,
    total_rounds: page.total,
    budget: query.budget,
    ...(query.before !== undefined ? { before: query.before } : {}),
    rounds: page.shown.map(({ number, round, body, cut }) => ({ round: number, step: round.stepId, finished_at: round.finishedAt, ...threadFields(round), body, cut })),
    ...(page.gap ? { omitted: { rounds: page.gap.count, before: page.gap.before, command: page.gap.command } } : {}),
  };
}
