import { join } from 'node:path';
import { modelEndpoints } from '../../adapters/access-mode.js';
import { sandboxLogin } from '../../adapters/login/sandbox-login.js';
import { attemptHome } from '../../sandbox/types.js';
import type { AdapterRunConfig } from '../../adapters/types.js';
import type { ResolvedAdapter, ResolvedPersona } from '../../core/resolved-adapter.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import type { RunContext } from '../run/context.js';
import { EVENTS_FILE } from '../../state/run-store.js';
import { WAVE_COMMAND_DIR, waveCommandPaths } from '../steps/wave-command.js';
import { stepGitBinds } from '../workspace/git/step-gitdir.js';
import type { WorktreeGit } from '../workspace/git/worktree-git.js';
import { skillHomes } from '../run/ready-skills.js';
import { agentTraceOf } from '../../trace/agent-trace.js';

export interface AttemptPlace {
  attempt: number;
  workspace: string;
  /** A worktree workspace's git: what of it the sandbox shows comes from here, never from the workspace's `.git`. */
  git?: WorktreeGit | undefined;
  attemptDir: string;
  env: Record<string, string>;
  /** Who the attempt runs as when not the step's persona (an agent_review's reviewer): its allowed_domains apply. */
  persona?: ResolvedPersona | undefined;
}

/** The hosts a step's sandbox may reach: every step's (runtime.sandbox.default_allowed_domains), then its persona's. */
export function stepAllowedDomains(context: RunContext, persona: ResolvedPersona | undefined): string[] {
  return [...context.plan.runtime.sandbox.defaultAllowedDomains, ...(persona?.allowedDomains ?? [])];
}

/** The spawn of one attempt inside the run's sandbox, or undefined (the host) when the backend is none. */
export function sandboxedSpawn(context: RunContext, step: AttemptStep, adapter: ResolvedAdapter, place: AttemptPlace): AdapterRunConfig['spawn'] {
  const { sandbox } = context;
  if (!sandbox || sandbox.backend === 'none') return undefined;
  const login = sandboxLogin(adapter, place.env, attemptHome(place.attemptDir));
  const collector = agentTraceOf(context.agentTrace, adapter);
  const scope = {
    runId: context.store.record.id,
    stepId: step.id,
    attempt: place.attempt,
    workspace: place.workspace,
    attemptDir: place.attemptDir,
    allowedDomains: [...stepAllowedDomains(context, place.persona ?? step.persona), ...(login?.hosts ?? [])],
    // A traced agent's own spans go to the run's collector: the one host tracing adds, and only then.
    endpoints: [...modelEndpoints(adapter, place.env), ...(collector ? [collector.destination.url] : [])],
    // `wave thread` inside reads the run's events and nothing else of its folder.
    readOnly: [join(context.store.dir, WAVE_COMMAND_DIR), join(context.store.dir, EVENTS_FILE), ...waveCommandPaths(), ...skillHomes(context.skills)],
    ...(place.git ? { gitBinds: stepGitBinds(place.git) } : {}),
    ...(login ? { login: { file: login.file, at: login.at, variables: login.variables } } : {}),
  };
  return (spec, signal) => sandbox.spawn(spec, scope, signal);
}
