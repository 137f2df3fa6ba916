import { chmod, copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';

/** One file the recorded attempt created, modified or deleted in its workspace (workspace/changes.json). */
export interface RecordedChange {
  path: string;
  change: 'created' | 'modified' | 'deleted';
  mode?: number;
  size?: number;
  sha256?: string;
  /** The names of the secrets replaced by `{{wave-secret:NAME}}` in its stored content. */
  secrets?: string[];
  /** A symlink's target: re-created as a link, never followed. */
  symlink?: string;
}

/** The workspace changes of a recorded attempt, as workspace/changes.json keeps them. */
export interface RecordedChanges {
  version: number;
  files: RecordedChange[];
  omitted?: Array<{ path: string; reason: string }>;
}

/** The recorded attempt's workspace/changes.json; undefined when the folder has none. */
export async function readRecordedChanges(attemptDir: string): Promise<RecordedChanges | undefined> {
  try {
    return JSON.parse(await readFile(join(attemptDir, 'workspace', 'changes.json'), 'utf8')) as RecordedChanges;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What restoring the changes left undone: the secrets whose variable was unset, so their placeholder stayed. */
export interface RestoredChanges {
  unsetSecrets: string[];
}

/**
 * Applies the recorded changes to `workspace`: created and modified files written from workspace/files/ with their
 * mode, symlinks re-created as recorded, deleted files removed; a `{{wave-secret:NAME}}` placeholder is restored from
 * the environment variable NAME only. A path that leads out of the workspace is refused.
 */
export async function applyRecordedChanges(changes: RecordedChanges, attemptDir: string, workspace: string, env: NodeJS.ProcessEnv): Promise<RestoredChanges> {
  const unsetSecrets = new Set<string>();
  for (const file of changes.files) {
    const target = insideWorkspace(workspace, file.path);
    if (file.change === 'deleted') {
      await rm(target, { recursive: true, force: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { force: true });
    if (file.symlink !== undefined) {
      await symlink(file.symlink, target);
      continue;
    }
    const stored = join(attemptDir, 'workspace', 'files', ...file.path.split('/'));
    if (file.secrets?.length) await writeFile(target, restoreSecrets(await readFile(stored, 'utf8'), file.secrets, env, unsetSecrets));
    else await copyFile(stored, target);
    if (file.mode !== undefined) await chmod(target, file.mode & 0o7777);
  }
  return { unsetSecrets: [...unsetSecrets].sort() };
}

/** The stored text with each `{{wave-secret:NAME}}` of `names` replaced by the variable NAME, left as it is when NAME is unset. */
function restoreSecrets(text: string, names: readonly string[], env: NodeJS.ProcessEnv, unset: Set<string>): string {
  let restored = text;
  for (const name of names) {
    const value = env[name];
    if (value === undefined) unset.add(name);
    else restored = restored.split(`{{wave-secret:${name}}}`).join(value);
  }
  return restored;
}

/** The absolute path of a recorded workspace path, refusing one that is absolute or climbs out with `..`. */
function insideWorkspace(workspace: string, path: string): string {
  const relative = normalize(path.split('/').join(sep));
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`)) throw new Error(`recorded path ${path} leads out of the workspace`);
  return join(workspace, relative);
}
