import { WaveError } from '../../errors.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables that would point git at another repository than the project's. */
const GIT_LOCATION_ENV = { GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined, GIT_COMMON_DIR: undefined };

/** Runs git in `cwd` (never prompting), with `env` added; a git that cannot start is spawn_failed. */
export async function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<GitResult> {
  // Loaded on first use: execa takes a noticeable part of a cold start, and most runs use no worktree.
  const { execa } = await import('execa');
  const result = await execa('git', args, {
    cwd,
    reject: false,
    stdin: 'ignore',
    env: { ...GIT_LOCATION_ENV, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...env },
  });
  if (result.exitCode === undefined) {
    throw new WaveError('spawn_failed', `git could not be started: ${result.shortMessage}`, {
      hint: 'Install git: a `workspace.type: worktree` step needs it on the PATH.',
      cause: result,
    });
  }
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr).trim() };
}
