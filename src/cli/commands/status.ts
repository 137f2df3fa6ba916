import type { Command } from 'commander';
import { shouldColor } from '../../report/color.js';
import { formatSummary } from '../../report/summary.js';
import { isProcessAlive } from '../../process/liveness.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';

/** `wave status <run>`: the summary of one run (or its run.json with --json). */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('Show the state of a run: each step, its duration, tokens, cost, artifacts and changed files.')
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .option('--json', 'print run.json')
    .action((runId: string, options: { manifest?: string; json?: boolean }) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const { record } = store;
      if (options.json) {
        process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
        return;
      }
      process.stdout.write(formatSummary(record, store.dir, { color: shouldColor(process.stdout) }));
      if (record.status === 'running' && !isProcessAlive(record.pid)) {
        process.stdout.write(`  note: the process that ran it${record.pid ? ` (pid ${record.pid})` : ''} is gone; continue with \`wave resume ${record.id}\`\n`);
      }
    });
}
