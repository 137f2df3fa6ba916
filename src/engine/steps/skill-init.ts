import { join } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { Redactor } from '../../redact.js';
import type { RunStore } from '../../state/run-store.js';
import { attemptEnv } from '../attempt/adapter-config.js';
import { stepAllowedDomains } from '../attempt/sandboxed-spawn.js';
import { skillHomes, type ReadySkill } from '../run/ready-skills.js';
import { runSecretValues } from '../run/run-secrets.js';
import { stepGitBinds } from '../workspace/git/step-gitdir.js';
import type { PreparedStep } from '../workspace/step-files.js';
import { runSandboxedShell } from './sandboxed-shell.js';
import type { StepRun } from './step-run.js';

/** Per run, the worktrees whose init has run or is running: steps sharing a branch share its worktree, made once. */
const initsByRun = new WeakMap<RunStore, Map<string, Promise<void>>>();

/**
 * Runs each ready skill's `init` in a workspace made for this step (Wave runs it in each new worktree), inside the
 * step's sandbox with its egress allowlist, in the skills' order; a skill that was skipped is not ready and has none
 * run. A failed init throws workspace_failed: the step fails before its first attempt.
 */
export async function initSkills({ context, step, signal }: StepRun<AttemptStep>, prepared: PreparedStep): Promise<void> {
  const skills = (context.skills ?? []).filter((skill) => skill.init !== undefined);
  if (!skills.length || !prepared.created) return;
  // A folder workspace is this step's own; a worktree may be asked for by several steps at once.
  if (prepared.kind === 'directory') return runInits({ context, step, signal }, prepared, skills);
  let started = initsByRun.get(context.store);
  if (!started) initsByRun.set(context.store, (started = new Map<string, Promise<void>>()));
  let pending = started.get(prepared.workspace);
  if (!pending) started.set(prepared.workspace, (pending = runInits({ context, step, signal }, prepared, skills)));
  return pending;
}

async function runInits(
  { context, step, signal }: Pick<StepRun<AttemptStep>, 'context' | 'step' | 'signal'>,
  prepared: PreparedStep,
  skills: readonly ReadySkill[],
): Promise<void> {
  const { store, plan } = context;
  const logDir = join(store.dir, 'steps', step.id, 'skill-init');
  const scope = {
    runId: store.record.id,
    stepId: step.id,
    attempt: 0,
    workspace: prepared.workspace,
    attemptDir: logDir,
    allowedDomains: stepAllowedDomains(context, step.persona),
    endpoints: [],
    readOnly: skillHomes(context.skills),
    ...(prepared.git ? { gitBinds: stepGitBinds(prepared.git) } : {}),
  };
  const redactor = new Redactor(runSecretValues(plan, context.parentEnv));
  const env = attemptEnv(context, step, step.adapter, prepared);
  for (const skill of skills) {
    if (!context.sandbox) throw initError(skill.name, prepared.workspace, 'it runs only in a sandbox, and the run has none', logDir);
    const ran = await runSandboxedShell({
      sandbox: context.sandbox,
      scope,
      command: skill.init!,
      cwd: prepared.workspace,
      env,
      logDir,
      name: skill.name,
      redactor,
      graceMs: plan.runtime.graceMs,
      timeoutMs: plan.runtime.skillCommandMs,
      signal,
    });
    if (!ran.ok) throw initError(skill.name, prepared.workspace, ran.detail, logDir);
  }
}

function initError(name: string, workspace: string, detail: string, logDir: string): WaveError {
  return new WaveError('workspace_failed', `skill \`${name}\` init failed in ${workspace}: ${detail}`, {
    hint: `Fix the skill's \`init\` command in requires.skills; its output is in ${logDir}.`,
  });
}
