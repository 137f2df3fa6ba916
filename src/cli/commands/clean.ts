import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { Duration, durationMs } from '../../config/schema/common-schema.js';
import { loadProjectManifest } from '../../config/load/load.js';
import { isProcessAlive } from '../../process/liveness.js';
import { runsRootOf } from '../../core/run-paths.js';
import { WaveError } from '../../core/errors/errors.js';
import { removeRunWorkspaces } from '../../engine/workspace/workspace.js';
import { deleteBranches, runBranches } from '../../engine/workspace/worktree.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RunStore } from '../../state/run-store.js';

interface CleanOptions {
  manifest?: string;
  olderThan?: number;
  dryRun?: boolean;
  keepBranches?: boolean;
}

/** Parses --older-than: a duration such as 30m, 12h, 1h30m or 7d. */
function age(value: string): number {
  const days = /^(\d+(?:\.\d+)?)d$/.exec(value);
  if (days) return Number(days[1]) * 86_400_000;
  if (Duration.safeParse(value).success) return durationMs(value);
  throw new WaveError('invalid_argument', `--older-than expects an age such as 30m, 12h or 7d, got \`${value}\``);
}

/** Whether a run has ended: its record says so, or the process that drove it is gone. */
function hasEnded(record: RunRecord): boolean {
  return record.status !== 'running' || !isProcessAlive(record.pid);
}

/** `wave clean`: removes what finished runs left in the project — workspaces, worktrees, `wave/<run>/…` branches. */
export function registerClean(program: Command): void {
  program
    .command('clean')
    .description('Remove the workspaces, git worktrees and wave/<run>/… branches that finished runs left (their records stay).')
    .option('-m, --manifest <file>', 'the manifest whose runs to clean (default: the nearest wave.yaml, else this folder)')
    .option('--older-than <age>', 'only runs that ended at least this long ago: 30m, 12h, 7d', age)
    .option('--dry-run', 'say what would be removed and remove nothing')
    .option('--keep-branches', "keep the wave/<run>/… branches (and the agents' commits on them)")
    .action(async (options: CleanOptions) => {
      const cwd = process.cwd();
      const manifest = await loadProjectManifest(cwd, options.manifest);
      const projectRoot = manifest.dir;
      const workspaceRoot = resolve(projectRoot, manifest.value.runtime?.workspace_root ?? '.wave/workspaces');
      let cleaned = 0;
      for (const record of RunStore.list(runsRootOf(projectRoot))) {
        const ended = Date.parse(record.finishedAt ?? record.startedAt);
        if (!hasEnded(record) || (options.olderThan !== undefined && Date.now() - ended < options.olderThan)) continue;
        const folder = join(workspaceRoot, record.id);
        const workspaces = existsSync(folder);
        const branches = options.keepBranches ? [] : await runBranches(projectRoot, record.id);
        if (!workspaces && !branches.length) continue;
        const what = [...(workspaces ? [`workspaces ${relative(cwd, folder) || '.'}`] : []), ...branches.map((ref) => `branch ${ref.slice('refs/heads/'.length)}`)];
        process.stdout.write(`${options.dryRun ? 'would remove' : 'removed'} ${record.id}: ${what.join(', ')}\n`);
        cleaned++;
        if (options.dryRun) continue;
        if (workspaces) await removeRunWorkspaces({ workspaceRoot, runId: record.id, projectRoot });
        await deleteBranches(projectRoot, branches);
      }
      if (!cleaned) process.stdout.write('Nothing to clean: no finished run left workspaces or branches.\n');
    });
}
