import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGES_DIFF_FILE, type FileChange } from '../../core/file-change.js';
import type { AdapterType } from '../../core/resolved-adapter.js';
import { artifactRedactor } from '../artifacts/artifact-redaction.js';
import { emit, type RunContext } from '../run/context.js';
import { folderChanges, folderDiff, snapshotFolder } from './folder-changes.js';
import { isWaveOwnedPath } from './wave-owned-paths.js';
import { snapshotWorktree, worktreeChanges, worktreeDiff } from './worktree-changes.js';
import type { WorktreeGit } from './git/worktree-git.js';
import { recordChangedFiles } from './change-snapshot.js';
import { recordingPolicyOf } from '../../plan/recording-policy.js';
import { runSecretEntries } from '../run/run-secrets.js';
import { markRecordingIncomplete } from '../attempt/recording-fields.js';

/** The diff file is cut at this many bytes, so one huge generated file cannot fill the run folder. */
export const CHANGES_DIFF_LIMIT = 4 * 1024 * 1024;

export interface ChangeWatch {
  workspace: string;
  /** A worktree's git: its changes are read through Wave's snapshot repository; a plain folder has none. */
  git?: WorktreeGit;
  adapterType: AdapterType;
  attemptDir: string;
  /** Whether a replay serves this attempt from its recording: a command step's runs live, so its files are not kept. */
  replayed: boolean;
}

type Measure = () => Promise<{ changes: FileChange[]; diff: (kept: FileChange[]) => Promise<string> }>;

/** Takes the workspace's before-state; the function returned measures what changed since. */
async function startWatch(watch: ChangeWatch): Promise<Measure> {
  const scratch = join(watch.attemptDir, 'before');
  const { git } = watch;
  if (git) {
    await mkdir(scratch, { recursive: true });
    const before = await snapshotWorktree(git, join(scratch, 'index'));
    return async () => {
      const after = await snapshotWorktree(git, join(scratch, 'index'));
      await rm(scratch, { recursive: true, force: true });
      const changes = await worktreeChanges(git, before, after);
      return {
        changes,
        diff: (kept) =>
          worktreeDiff(
            git,
            before,
            after,
            kept.map((c) => c.path),
          ),
      };
    };
  }
  // A plain folder's scratch is made by the first copy into it: an empty workspace leaves none to make and remove.
  const before = await snapshotFolder(watch.workspace, scratch);
  return async () => {
    const changes = await folderChanges(watch.workspace, before);
    return { changes, diff: (kept) => folderDiff(watch.workspace, before, scratch, kept) };
  };
}

/**
 * Runs `attempt` and records the files it created, modified and deleted in the workspace (Wave's own files left
 * out): a file_change event each, the step's filesChanged in run.json, the unified diff in the attempt folder, and
 * (runtime.recording) each created or modified file's full content for a replay.
 */
export async function withFileChanges<T>(context: RunContext, stepId: string, attempt: number, watch: ChangeWatch, run: () => Promise<T>): Promise<T> {
  // What changed is a report on the attempt, never its outcome: a workspace that cannot be measured still runs.
  let problem: unknown;
  const measure = await startWatch(watch).catch((error: unknown) => void (problem = error));
  const result = await run();
  try {
    if (!measure) throw problem;
    const { changes, diff } = await measure();
    const kept: FileChange[] = [];
    for (const change of changes) if (!(await isWaveOwnedPath(watch.workspace, change.path, watch.adapterType))) kept.push(change);
    // The diff holds the workspace's text: a secret Wave knows is stored redacted, as in artifacts.
    const raw = await diff(kept);
    const text = artifactRedactor(context)?.redact(raw) ?? raw;
    const capped =
      Buffer.byteLength(text) > CHANGES_DIFF_LIMIT ? `${Buffer.from(text).subarray(0, CHANGES_DIFF_LIMIT).toString('utf8')}\n[diff cut at ${CHANGES_DIFF_LIMIT} bytes]\n` : text;
    await writeFile(join(watch.attemptDir, CHANGES_DIFF_FILE), capped);
    for (const change of kept) emit(context, { type: 'file_change', stepId, attempt, ...change });
    await recordContent(context, watch, kept);
  } catch (error) {
    // Said where `wave diff` looks, rather than failing a step whose work is done.
    const said = error instanceof Error ? error.message : String(error);
    const message = artifactRedactor(context)?.redact(said) ?? said;
    await writeFile(join(watch.attemptDir, CHANGES_DIFF_FILE), `[the files this attempt changed could not be listed: ${message}]\n`).catch(() => undefined);
    // A recording without the attempt's files cannot be replayed whole.
    if (recordingPolicyOf(context.plan.runtime).enabled) await markRecordingIncomplete(watch.attemptDir).catch(() => undefined);
  }
  return result;
}

const secretEntries = new WeakMap<RunContext, Array<[name: string, value: string]>>();

/** The run's secrets with their variables, worked out once a run: every step of the plan is read for them. */
function secretEntriesOf(context: RunContext): Array<[name: string, value: string]> {
  let entries = secretEntries.get(context);
  if (!entries) secretEntries.set(context, (entries = runSecretEntries(context.plan, context.parentEnv)));
  return entries;
}

/** Keeps the changed files' content for a replay (runtime.recording), marking the attempt's record when one is left out. */
async function recordContent(context: RunContext, watch: ChangeWatch, kept: readonly FileChange[]): Promise<void> {
  const policy = recordingPolicyOf(context.plan.runtime);
  if (!policy.enabled || !watch.replayed) return;
  const secrets = secretEntriesOf(context);
  const recorded = await recordChangedFiles({ workspace: watch.workspace, attemptDir: watch.attemptDir, changes: kept, policy, secrets }).catch(() => ({ incomplete: true }));
  // Like the diff, the recording reports on the attempt and never fails it.
  if (recorded.incomplete) await markRecordingIncomplete(watch.attemptDir).catch(() => undefined);
}
