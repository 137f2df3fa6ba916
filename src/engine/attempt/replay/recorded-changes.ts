import { chmod, copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { RECORDED_CHANGES_FILE, RECORDED_FILES_DIR, RECORDED_WORKSPACE_DIR, type RecordedChanges as WrittenChanges } from '../../workspace/change-snapshot.js';
import { withSecretValues } from '../../workspace/secret-placeholders.js';

export type { RecordedChange } from '../../workspace/change-snapshot.js';

/** The workspace changes of a recorded attempt as read back: `omitted` may be absent from a file written by hand. */
export type RecordedChanges = Omit<WrittenChanges, 'omitted'> & Partial<Pick<WrittenChanges, 'omitted'>>;

/** The recorded attempt's workspace/changes.json; undefined when the folder has none. */
export async function readRecordedChanges(attemptDir: string): Promise<RecordedChanges | undefined> {
  try {
    return JSON.parse(await readFile(join(attemptDir, RECORDED_WORKSPACE_DIR, RECORDED_CHANGES_FILE), 'utf8')) as RecordedChanges;
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
    const stored = join(attemptDir, RECORDED_WORKSPACE_DIR, RECORDED_FILES_DIR, ...file.path.split('/'));
    if (file.secrets?.length) {
      const restored = withSecretValues(await readFile(stored), file.secrets, env);
      restored.unset.forEach((name) => unsetSecrets.add(name));
      await writeFile(target, restored.content);
    } else await copyFile(stored, target);
    if (file.mode !== undefined) await chmod(target, file.mode & 0o7777);
  }
  return { unsetSecrets: [...unsetSecrets].sort() };
}

/** The absolute path of a recorded workspace path, refusing one that is absolute or climbs out with `..`. */
function insideWorkspace(workspace: string, path: string): string {
  const relative = normalize(path.split('/').join(sep));
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`)) throw new Error(`recorded path ${path} leads out of the workspace`);
  return join(workspace, relative);
}
