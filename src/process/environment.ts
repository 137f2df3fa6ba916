import { tmpdir } from 'node:os';

/** Parent variables every step gets when the parent has them. */
export const BASE_NAMES = ['HOME', 'PATH', 'TERM', 'TMPDIR'] as const;

export interface CuratedEnvInput {
  /** The parent's environment (usually process.env). */
  parent: Record<string, string | undefined>;
  /** Names from runtime.sandbox.env_passthrough: copied when set in the parent. */
  passthrough: readonly string[];
  /** The step's own variables (adapter, persona and step env, already merged by the caller). */
  stepEnv?: Record<string, string>;
  /** Variables Wave sets for the step (its dependencies' artifacts), which the step's env does not override. */
  waveEnv?: Record<string, string>;
  runId: string;
  stepId: string;
  /** Absolute path of the step's workspace. */
  workspace: string;
  /** Absolute path of the run's folder, for `wave thread` inside the step. */
  runDir?: string;
  /** A folder put first on PATH: the run's `wave` command. */
  commandDir?: string;
}

/**
 * The environment a step's process gets: HOME, PATH, TERM, TMPDIR, the passthrough names, the step's
 * env, Wave's own variables (WAVE_DEPS_DIR, WAVE_DEP_*), then WAVE_RUN_ID, WAVE_STEP_ID, WAVE_WORKSPACE, WAVE_RUN_DIR and the run's `wave` first on PATH, which
 * nothing overrides. Nothing else leaks in.
 */
export function buildCuratedEnv(input: CuratedEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_NAMES, ...input.passthrough]) {
    const value = input.parent[name];
    if (value !== undefined) env[name] = value;
  }
  env.TMPDIR ??= tmpdir();
  Object.assign(env, input.stepEnv, input.waveEnv);
  env.WAVE_RUN_ID = input.runId;
  env.WAVE_STEP_ID = input.stepId;
  env.WAVE_WORKSPACE = input.workspace;
  if (input.runDir) env.WAVE_RUN_DIR = input.runDir;
  if (input.commandDir) env.PATH = env.PATH ? `${input.commandDir}:${env.PATH}` : input.commandDir;
  return env;
}

/** The values of the passthrough variables set in the parent: what the Redactor must hide. */
export function secretValuesOf(parent: Record<string, string | undefined>, passthrough: readonly string[]): string[] {
  return passthrough.map((name) => parent[name]).filter((value): value is string => value !== undefined && value !== '');
}
