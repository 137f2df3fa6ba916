import { execFile } from 'node:child_process';
import { forgeOf, pickFetchRemote, type ForgeInfo } from './forge.js';

/** The fetch remote of the repository holding `dir`, by `git remote -v` there; undefined without git, a repository or a remote. */
export function fetchRemoteOf(dir: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    // Variables that would point git at another repository than the project's are left out.
    const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, GIT_INDEX_FILE: _index, GIT_COMMON_DIR: _common, ...env } = process.env;
    execFile('git', ['remote', '-v'], { cwd: dir, env: { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, timeout: 30_000 }, (error, stdout) => {
      resolve(error ? undefined : pickFetchRemote(String(stdout)));
    });
  });
}

/**
 * Wave's DetectFromGitRemotesWithOverride, for the project in `dir`: its forge from the fetch remote (`local`
 * without one), with `metadata.forge` as `override`.
 */
export async function detectForge(dir: string, override: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<ForgeInfo> {
  const forced = override?.toLowerCase();
  // Wave: `local` or `none` needs no look at the remotes.
  if (forced === 'local' || forced === 'none') return forgeOf(undefined, forced, env);
  return forgeOf(await fetchRemoteOf(dir), override, env);
}
