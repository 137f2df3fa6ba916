import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequirementStatus } from '../engine/steps/requirements.js';
import { runSandboxedShell } from '../engine/steps/sandboxed-shell.js';
import { skillInstallDir, withSkillPath, type ReadySkill } from '../engine/run/ready-skills.js';
import type { PlannedRequiredSkill } from '../plan/plan-requires.js';
import type { Plan } from '../plan/plan-types.js';
import { buildCuratedEnv } from '../process/environment.js';
import { attemptHome, type Sandbox } from '../sandbox/types.js';
import { runRedactor } from './run-redactor.js';

/** How a run may set its skills up: whether it opted in, and the sandbox install and check commands run in. */
export interface SkillSetupOptions {
  /** `--install-skills`, or the manifest's runtime.skills.allow_install. */
  allowed: boolean;
  /** The run's sandbox, opened for the setup; undefined or backend none: nothing of a skill may run. */
  sandbox: Sandbox | undefined;
  env: NodeJS.ProcessEnv;
}

/** What the opt-in is, as refusals name it. */
export const INSTALL_OPT_IN = '`wave run --install-skills` or `runtime.skills.allow_install: true` in wave.yaml';
const NEEDS_SANDBOX = 'set runtime.sandbox.backend to bubblewrap or docker, since a skill never installs or initialises on the bare host';

/**
 * Takes each skill's status from its check on the host and decides what the run does with it: a found skill without
 * `init` is ready; `install` and `init` run only after the opt-in and inside the sandbox (a missing skill is installed
 * there with the egress allowlist every step starts with, its HOME kept in .wave/skills/<name>/, then checked there).
 * Returns the statuses as they end (a skill that cannot be set up is missing) and the skills ready for the steps.
 */
export async function setUpSkills(plan: Plan, statuses: readonly RequirementStatus[], options: SkillSetupOptions): Promise<{ statuses: RequirementStatus[]; ready: ReadySkill[] }> {
  const ready: ReadySkill[] = [];
  const ended: RequirementStatus[] = [];
  for (const status of statuses) {
    const skill = status.kind === 'skill' ? plan.requires.skills.find((s) => s.name === status.name) : undefined;
    if (!skill) {
      ended.push(status);
      continue;
    }
    const set = await setUpSkill(plan, skill, status, options);
    if ('status' in set) {
      ended.push(set.status);
      continue;
    }
    ready.push(set.ready);
    ended.push(status.ok ? status : { ...status, ok: true, detail: `installed in the sandbox (${set.ready.home})` });
  }
  return { statuses: ended, ready };
}

type SetUp = { ready: ReadySkill } | { status: RequirementStatus };

async function setUpSkill(plan: Plan, skill: PlannedRequiredSkill, status: RequirementStatus, options: SkillSetupOptions): Promise<SetUp> {
  const init = skill.init !== undefined ? { init: skill.init } : {};
  const missing = (detail: string, hint: string): SetUp => ({ status: { ...status, ok: false, detail, hint, ...(status.ok ? { idle: true } : {}) } });
  const sandboxed = options.sandbox !== undefined && options.sandbox.backend !== 'none';
  if (status.ok) {
    if (skill.init === undefined) return { ready: { name: skill.name } };
    if (!options.allowed) return missing(`its init runs only with ${INSTALL_OPT_IN}`, optInHint(skill));
    if (!sandboxed) return missing('its init runs only in a sandbox, and the run has none', `To run it, ${NEEDS_SANDBOX}.`);
    return { ready: { name: skill.name, ...init } };
  }
  if (skill.install === undefined) return { status };
  if (!options.allowed) return missing(`${status.detail}; its install runs only with ${INSTALL_OPT_IN}`, optInHint(skill));
  if (!sandboxed) return missing(`${status.detail}; its install runs only in a sandbox, and the run has none`, `To install it, ${NEEDS_SANDBOX}.`);
  const installed = await oneAtATime(skillInstallDir(plan.projectRoot, skill.name), () => installInSandbox(plan, skill, options.sandbox!, options.env));
  if (!installed.ok) return missing(installed.detail, `Fix the skill's \`install\` or \`check\` command; their output is in ${skillInstallDir(plan.projectRoot, skill.name)}.`);
  return { ready: { name: skill.name, ...init, home: installed.home } };
}

/** The setups under way per install folder in this process: child runs started together (workers) share the folder. */
const setupsUnderWay = new Map<string, Promise<unknown>>();

/** Runs `setup` once the earlier one of the same folder has ended: two never share its HOME, /tmp and logs at once. */
async function oneAtATime<T>(dir: string, setup: () => Promise<T>): Promise<T> {
  const earlier = setupsUnderWay.get(dir) ?? Promise.resolve();
  const next = earlier.then(setup, setup);
  setupsUnderWay.set(dir, next);
  try {
    return await next;
  } finally {
    if (setupsUnderWay.get(dir) === next) setupsUnderWay.delete(dir);
  }
}

function optInHint(skill: PlannedRequiredSkill): string {
  return `Run with --install-skills (or set runtime.skills.allow_install: true) to let its commands run in the sandbox${skill.optional ? '' : ', or mark it `optional: true`'}.`;
}

/**
 * The skill in its install folder: checked there first (an earlier run may have installed it), else installed and
 * checked again, each command in the sandbox with the install folder's HOME and its `.local/bin` first on PATH.
 */
async function installInSandbox(plan: Plan, skill: PlannedRequiredSkill, sandbox: Sandbox, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; detail: string; home: string }> {
  const dir = skillInstallDir(plan.projectRoot, skill.name);
  const home = attemptHome(dir);
  const work = join(dir, 'work');
  await mkdir(work, { recursive: true });
  const scope = { runId: 'skills', stepId: skill.name, attempt: 0, workspace: work, attemptDir: dir, allowedDomains: plan.runtime.sandbox.defaultAllowedDomains, endpoints: [] };
  const path = withSkillPath(env.PATH, [{ name: skill.name, home }]);
  const curated = buildCuratedEnv({ parent: { ...env, PATH: path }, passthrough: plan.runtime.envPassthrough, runId: 'skills', stepId: skill.name, workspace: work });
  const shell = { sandbox, scope, cwd: work, env: curated, logDir: dir, redactor: runRedactor(plan, env), graceMs: plan.runtime.graceMs, timeoutMs: plan.runtime.skillCommandMs };
  const check = () =>
    skill.check === undefined
      ? Promise.resolve({ ok: false, detail: 'it has no `check` command, so it cannot be found installed' })
      : runSandboxedShell({ ...shell, command: skill.check, name: 'check' });
  if (existsSync(home) && (await check()).ok) return { ok: true, detail: 'installed earlier in the sandbox', home };
  const install = await runSandboxedShell({ ...shell, command: skill.install!, name: 'install' });
  if (!install.ok) return { ...install, detail: `install failed: ${install.detail}`, home };
  const after = await check();
  return { ok: after.ok, detail: after.ok ? 'installed in the sandbox' : `still not found after its install: ${after.detail}`, home };
}
