import { tmpdir } from 'node:os';

/** What one look at the forge says: the gate may pass, must fail, is still waiting, or could not be asked (asked again later). */
export type ForgeLook = { passed: string } | { failed: string } | { waiting: string } | { error: string };

/** How long one `gh` call may take. */
const GH_TIMEOUT_MS = 60_000;

/** Conclusions of a finished GitHub Actions run that fail a ci_pass gate (others, neutral included, pass it, as in Wave). */
const FAILED_CONCLUSIONS = new Set(['failure', 'cancelled', 'timed_out', 'action_required', 'startup_failure']);

/** `gh pr view <n> --repo <repo> --json merged,state`: merged passes, closed fails. */
export async function lookAtPullRequest(repo: string, pr: number, signal: AbortSignal): Promise<ForgeLook> {
  const answer = await askGh(['pr', 'view', String(pr), '--repo', repo, '--json', 'merged,state'], signal);
  if (!('json' in answer)) return answer;
  const { merged, state } = (answer.json ?? {}) as { merged?: unknown; state?: unknown };
  if (typeof merged !== 'boolean' || typeof state !== 'string') return { error: 'gh answered without `merged` and `state`' };
  if (merged) return { passed: `pull request #${pr} of ${repo} is merged` };
  if (state.toUpperCase() === 'CLOSED') return { failed: `pull request #${pr} of ${repo} was closed without being merged` };
  return { waiting: `pull request #${pr} of ${repo} is ${state.toLowerCase()}` };
}

/** `gh run list --branch <b> --repo <repo> --limit 5 --json status,conclusion`: the latest run decides once it has finished. */
export async function lookAtBranchCi(repo: string, branch: string, signal: AbortSignal): Promise<ForgeLook> {
  const answer = await askGh(['run', 'list', '--branch', branch, '--repo', repo, '--limit', '5', '--json', 'status,conclusion'], signal);
  if (!('json' in answer)) return answer;
  if (!Array.isArray(answer.json)) return { error: 'gh answered something other than a list of runs' };
  const latest = answer.json[0] as { status?: unknown; conclusion?: unknown } | undefined;
  if (!latest) return { waiting: `branch ${branch} of ${repo} has no CI run yet` };
  const status = String(latest.status).toLowerCase();
  if (status !== 'completed') return { waiting: `the latest CI run of branch ${branch} is ${status}` };
  const conclusion = String(latest.conclusion).toLowerCase();
  if (FAILED_CONCLUSIONS.has(conclusion)) return { failed: `the latest CI run of branch ${branch} of ${repo} ended ${conclusion}` };
  return { passed: `the latest CI run of branch ${branch} of ${repo} ended ${conclusion}` };
}

/** Runs `gh` outside any workspace (the repository is named, so no folder's git is read) and parses its JSON; no `gh` at all fails the gate. */
async function askGh(args: string[], signal: AbortSignal): Promise<{ json: unknown } | { error: string } | { failed: string }> {
  // execa loads only for a gate that asks GitHub: every run reaches this module.
  const { execa } = await import('execa');
  const result = await execa('gh', args, { cwd: tmpdir(), reject: false, timeout: GH_TIMEOUT_MS, cancelSignal: signal, stdin: 'ignore' });
  // Asking again would not install it: the gate fails at once.
  if ((result as { code?: string }).code === 'ENOENT') return { failed: "gh, GitHub's CLI, is not installed: the gate cannot ask GitHub" };
  if (result.exitCode !== 0) return { error: `gh ${args.slice(0, 2).join(' ')} failed: ${lastLine(result.stderr) || `exit ${result.exitCode}`}` };
  try {
    return { json: JSON.parse(result.stdout) as unknown };
  } catch {
    return { error: `gh ${args.slice(0, 2).join(' ')} answered no JSON` };
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
