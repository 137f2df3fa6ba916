import type { CommitFile, StepGit } from '../../../contracts/step-git.js';
import { isolatedGit } from './git-command.js';
import { branchCommit, commitOf, worktreeDiffFrom } from './step-diff.js';
import type { WorktreeGit } from './worktree-git.js';

/** `HEAD` at the start of a ref, before its end or a `~`/`^` suffix: the worktree's HEAD, which is the step's branch. */
const LEADING_HEAD = /^HEAD(?=$|[~^])/;

/**
 * A worktree step's git for its contracts, every command isolated (git-command.ts) in the project repository or the
 * run's snapshot repository: nothing the step wrote — a `.git` file, config, hooks, attributes — is read or run.
 */
export function stepGitReader(worktree: WorktreeGit): StepGit {
  const inRepository = (args: string[]) => isolatedGit(args, { gitDir: worktree.repository, cwd: worktree.repository });
  return {
    diffFromHead: async (pathspecs) => worktreeDiffFrom(worktree, await branchCommit(worktree), pathspecs),
    commitOf: async (ref) => {
      const id = await commitOf(worktree, ref.replace(LEADING_HEAD, `refs/heads/${worktree.branch}`));
      if (id === undefined) throw new Error(`\`${ref}\` names no commit of the repository (the step's branch is \`${worktree.branch}\`)`);
      return id;
    },
    filesOf: async (commit) => {
      const listed = await inRepository(['ls-tree', '-r', '-z', '--full-tree', commit]);
      if (listed.code !== 0) throw new Error(`git ls-tree ${commit} failed: ${listed.stderr || `exit code ${listed.code}`}`);
      const files: CommitFile[] = [];
      for (const entry of listed.stdout.split('\0')) {
        const tab = entry.indexOf('\t');
        const [, type, blob] = entry.slice(0, tab).split(' ');
        if (tab > 0 && type === 'blob' && blob) files.push({ path: entry.slice(tab + 1), blob });
      }
      return files;
    },
    blobText: async (blob) => {
      const read = await inRepository(['cat-file', 'blob', blob]);
      if (read.code !== 0) throw new Error(`git cat-file blob ${blob} failed: ${read.stderr || `exit code ${read.code}`}`);
      return read.stdout;
    },
  };
}
