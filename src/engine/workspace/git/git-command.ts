import { dirname } from 'node:path';
import { WaveError } from '../../../core/errors/errors.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables that would point git at another repository than the project's. */
const GIT_LOCATION_ENV = { GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined, GIT_COMMON_DIR: undefined };

/** Files a git's standard input is read from and its standard output written to, in place of pipes. */
export interface GitFiles {
  input?: string;
  output?: string;
}

/** Runs git in `cwd` (never prompting), with `env` added; a git that cannot start is spawn_failed. */
export async function git(args: string[], cwd: string, env: Record<string, string | undefined> = {}, files: GitFiles = {}): Promise<GitResult> {
  // Loaded on first use: execa takes a noticeable part of a cold start, and most runs use no worktree.
  const { execa } = await import('execa');
  const result = await execa('git', args, {
    cwd,
    reject: false,
    stdin: files.input === undefined ? 'ignore' : { file: files.input },
    ...(files.output === undefined ? {} : { stdout: { file: files.output } }),
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

/**
 * Settings that keep git from starting anything a repository names: no fsmonitor or hooks, no external diff or
 * textconv driver, no untracked cache. Filter and diff drivers exist only in configuration, which isolatedGit reads
 * from Wave's own repository alone, so a `.gitattributes` a step wrote names drivers that do not exist.
 */
const INERT_SETTINGS = ['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'core.untrackedCache=false', 'diff.external=', 'core.pager=cat'].flatMap((s) => ['-c', s]);

/** Where an isolated git works: a repository Wave made, optionally a work tree (a step's files) and an index file. */
export interface IsolatedPlace {
  /** Wave's own repository, never one a step can write; without it, no repository at all (`git diff --no-index`). */
  gitDir?: string;
  workTree?: string;
  indexFile?: string;
  cwd: string;
}

/**
 * Runs git on files a step controls without running anything they name: the repository and its configuration are
 * Wave's (no system or global configuration, no repository found by looking upwards from `cwd`), and INERT_SETTINGS
 * are on the command line.
 */
export function isolatedGit(args: string[], place: IsolatedPlace): Promise<GitResult> {
  return git([...INERT_SETTINGS, ...args], place.cwd, {
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workTree,
    GIT_INDEX_FILE: place.indexFile,
    // Without a repository of Wave's, git stops looking for one at `cwd` rather than finding the project's.
    GIT_CEILING_DIRECTORIES: place.gitDir === undefined ? dirname(place.cwd) : undefined,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_CONFIG_PARAMETERS: undefined,
    GIT_CONFIG_COUNT: undefined,
    GIT_EXTERNAL_DIFF: undefined,
    GIT_OBJECT_DIRECTORY: undefined,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: undefined,
  });
}
