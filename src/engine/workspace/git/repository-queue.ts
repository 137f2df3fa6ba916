// git takes locks on the repository's shared files; one worktree change at a time per repository avoids them.
const repositoryQueues = new Map<string, Promise<unknown>>();

/** Runs `task` after every change to the repository `repo` queued before it has ended (failed or not). */
export function inRepositoryQueue<T>(repo: string, task: () => Promise<T>): Promise<T> {
  const next = (repositoryQueues.get(repo) ?? Promise.resolve()).then(task, task);
  repositoryQueues.set(
    repo,
    next.catch(() => undefined),
  );
  return next;
}
