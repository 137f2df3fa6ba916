import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SYSTEM_CLOCK } from '../../core/clock.js';
import type { Failure } from '../../core/errors/failure.js';
import { lookAtBranchCi, lookAtPullRequest, type ForgeLook } from '../../forge/github-gates.js';
import type { GatePoll, GateStep, Plan } from '../../plan/plan-types.js';
import { reasonOf } from '../attempt/attempt.js';
import type { StepRun } from './step-run.js';

/** What a pr_merge or ci_pass gate asks GitHub about, once its repository (and branch) are known. */
export interface ForgeGateTarget {
  /** What the gate waits for, as its status says it. */
  polls: string;
  look: (signal: AbortSignal) => Promise<ForgeLook>;
}

/** The gate's repository and branch (its own, else the project's) and how to look; a failure when they cannot be known. */
export function forgeGateTarget(plan: Plan, step: GateStep, poll: GatePoll): ForgeGateTarget | { failure: Failure } {
  const { info } = plan.forge;
  if (!poll.repo && info.type !== undefined && info.type !== 'github' && info.type !== 'local')
    return fail(`gate \`${step.id}\` asks GitHub (through gh), and this project's forge is ${info.type}: set \`gate.repo\` to the GitHub repository`);
  const repo = poll.repo ?? (info.owner && info.repo ? `${info.owner}/${info.repo}` : undefined);
  if (!repo) return fail(`gate \`${step.id}\` cannot tell which GitHub repository to ask: the project has no GitHub remote; set \`gate.repo: owner/repo\``);
  if (step.gateType === 'pr_merge') {
    const pr = poll.prNumber!;
    return { polls: `pull request #${pr} of ${repo} to merge`, look: (signal) => lookAtPullRequest(repo, pr, signal) };
  }
  const branch = poll.branch ?? checkedOutBranch(plan.projectRoot);
  if (!branch) return fail(`gate \`${step.id}\` cannot tell which branch's CI to wait for: the project has no branch checked out; set \`gate.branch\``);
  return { polls: `the latest CI run of branch ${branch} of ${repo} to pass`, look: (signal) => lookAtBranchCi(repo, branch, signal) };
}

/**
 * Looks every interval until the forge says the gate passes (resolved), fails (the step fails with what it said), or
 * the gate's timeout passes; an answer that could not be had is asked again next time, as in Wave.
 */
export async function pollForge(run: StepRun<GateStep>, target: ForgeGateTarget): Promise<{ passed: string } | { failure: Failure }> {
  const { step, signal } = run;
  const clock = run.context.clock ?? SYSTEM_CLOCK;
  const deadline = clock.now() + step.timeoutMs!;
  for (;;) {
    const look = await target.look(signal);
    if (signal.aborted) return { failure: reasonOf(signal) };
    if ('passed' in look) return look;
    if ('failed' in look) return { failure: { class: 'gate_rejected', message: look.failed } };
    const last = 'waiting' in look ? look.waiting : look.error;
    const left = deadline - clock.now();
    if (left <= 0) return { failure: { class: 'timeout', message: `gate \`${step.id}\` waited ${step.timeoutMs! / 1000} s for ${target.polls}; last: ${last}` } };
    if (!(await clock.sleep(Math.min(step.poll!.intervalMs, left), signal))) return { failure: reasonOf(signal) };
  }
}

function fail(message: string): { failure: Failure } {
  return { failure: { class: 'gate_rejected', message } };
}

/** The branch checked out in the project, read from its `.git/HEAD` (no git is run); undefined when detached or not a repository. */
function checkedOutBranch(projectRoot: string): string | undefined {
  const dotGit = join(projectRoot, '.git');
  try {
    // A linked worktree's `.git` is a file naming its folder.
    const gitDir = statSync(dotGit).isFile() ? resolve(projectRoot, /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1] ?? dotGit) : dotGit;
    return /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}
