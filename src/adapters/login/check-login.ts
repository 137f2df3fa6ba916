import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { buildCuratedEnv } from '../../process/environment.js';
import { agentCliOfAdapter } from '../agent-clis.js';
import type { LoginStatus } from './login-status.js';
import { ISOLATED_KEEPS_LOGIN_OUT } from './login-hints.js';
import type { CliEnvInput } from '../types.js';

export interface LoginCheckInput {
  adapter: ResolvedAdapter;
  /** The parent's environment: what reaches a step is curated from it, as for a run. */
  parent: Record<string, string | undefined>;
  /** runtime.sandbox.env_passthrough. */
  passthrough: readonly string[];
  /** The CLI's binary, already found on the PATH. */
  binaryPath: string;
  /** An empty folder standing for the attempt folder: an isolated adapter's config home would be made inside it. */
  scratchDir: string;
  /** The manifest's folder: the CLIs look for some settings from their working folder upwards. */
  projectDir: string;
}

/**
 * The login status of an agent CLI adapter, checked with the environment a step of it gets (the curated variables, the
 * adapter's env and base URL, an isolated config home); undefined for a type without a check (process, llm, cursor).
 */
export async function loginStatus(input: LoginCheckInput): Promise<LoginStatus | undefined> {
  const { adapter, scratchDir } = input;
  const env = buildCuratedEnv({ parent: input.parent, passthrough: input.passthrough, stepEnv: adapter.env, runId: 'doctor', stepId: 'doctor', workspace: scratchDir });
  const cli: CliEnvInput = { adapter, env, attemptDir: scratchDir };
  const descriptor = agentCliOfAdapter(adapter);
  const status = await descriptor?.loginStatus?.(cli, input);
  if (!status || status.state !== 'missing') return status;
  // An isolated CLI gets a config home of its own, so the user's login never reaches it: only a key does.
  const isolated = adapter.isolated ? ` (${ISOLATED_KEEPS_LOGIN_OUT})` : '';
  return { ...status, detail: `${status.detail}${isolated}`, hint: status.hint ?? descriptor?.loginHint };
}
