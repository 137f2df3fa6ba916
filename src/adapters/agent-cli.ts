import type { AgentCliModels } from '../core/models/agent-cli-models.js';
import type { AgentCliType } from '../core/resolved-adapter.js';
import type { SpawnResult } from '../process/spawn-spec.js';
import type { LoginStatus } from './login/login-status.js';
import type { AdapterResult, AdapterRunConfig, CliEnvInput, StreamEvent } from './types.js';

/** How one attempt of an agent CLI is started, once its workspace and config home are prepared. */
export interface AgentInvocation {
  args: string[];
  /** The complete environment of the process. */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed; otherwise stdin is /dev/null. */
  stdin?: string;
}

/** What a finished agent run amounts to, read from its stream and exit. */
export type AgentOutcome = Pick<AdapterResult, 'ok' | 'text' | 'sessionId' | 'tokens' | 'costUsd' | 'subtype' | 'failure'>;

/** The stateful reader of one attempt's stdout. */
export interface AgentStream {
  /** The events of one stdout line; never throws. */
  line(line: string): StreamEvent[];
  /** The outcome once the process has exited on its own. */
  finish(spawn: SpawnResult): AgentOutcome;
  /** The events of one stderr line, for a CLI that reports some activity only there. */
  stderrLine?(line: string): StreamEvent[];
  /** Non-blank stdout lines that were not JSON objects: counted into the result's skippedLines. */
  readonly malformedLines?: number;
}

/** The runner pieces of one agent CLI, as the shared runner (agent-process.ts) drives them. */
export interface AgentCli {
  /** Prepares workspace files and config home; returns argv and env. */
  prepare(config: AdapterRunConfig): Promise<AgentInvocation>;
  stream(config: AdapterRunConfig): AgentStream;
  /** What the CLI says (failure message or stderr) when it cannot resume a session it does not know, before any work. */
  refusedResume?: RegExp;
  /**
   * Why the CLI kept nothing of `sessionId` that a later attempt could resume (`env`: the process's environment), or
   * undefined when it kept it; absent for a CLI that keeps every session it reports.
   */
  unsavedSession?(config: AdapterRunConfig, env: Record<string, string>, sessionId: string): Promise<string | undefined>;
}

/** How a missing CLI is installed: its npm package, or (not on npm) the vendor's install command. */
export type CliInstall = { package: string } | { command: string };

/** The variables through which a CLI takes a model base URL, and where it goes when none is set (null: nowhere known). */
export interface CliEndpoint {
  variables: readonly string[];
  fallback: string | null;
}

/** What a login check is given besides the step's environment: the CLI's binary, found on the PATH, and the manifest's folder. */
export interface LoginCheckPlace {
  binaryPath: string;
  /** The CLIs look for some settings from their working folder upwards. */
  projectDir: string;
}

/** The user's own login to a CLI: where the CLI keeps it, and what a sandboxed step needs to use it. */
export interface CliLogin {
  /** The files holding it, under the user's home (or the CLI's own config home variable). */
  files(env: Record<string, string | undefined>): string[];
  /** Variables that make the CLI use it where its settings (out of a sandbox's sight) select nothing. */
  variables: Readonly<Record<string, string>>;
  /** Hosts the CLI reaches with it besides its model endpoint: its token refresh, a subscription's API. */
  hosts: readonly string[];
}

/** A CLI's own login check, with the environment a step of it gets. */
export type LoginCheck = (cli: CliEnvInput, place: LoginCheckPlace) => Promise<LoginStatus>;

/**
 * Everything Wave knows of one agent CLI (a built-in, or a plugin's, src/adapters/plugin/); the tables about CLIs (src/adapters/agent-clis.ts) are derived from these.
 * Every field is required: "none" is an explicit null or empty list, so a new CLI's descriptor cannot forget one.
 */
export interface AgentCliDescriptor<Type extends AgentCliType | 'plugin' = AgentCliType> {
  type: Type;
  /** The binary run when the adapter names none. */
  binary: string;
  /** How to install it, for the hint when its binary is missing. */
  install: CliInstall;
  /** The API key variables the CLI reads on its own, in the order they are looked for. */
  keyVariables: readonly string[];
  login: CliLogin;
  endpoint: CliEndpoint;
  /** The CLI's login check (`wave doctor`); null for a CLI without one. */
  loginStatus: LoginCheck | null;
  /** What to do when the CLI has no credentials, or had them refused. */
  loginHint: string;
  /** The configuration files Wave writes into the workspace for the CLI (`/`-separated, relative). */
  configFiles: readonly string[];
  /** The instruction file Wave writes the persona's prompt into, in the workspace; null when it goes on the command line. */
  instructionsFile: string | null;
  /** Where the CLI reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory; null: none. */
  skillsFolder: string | null;
  /** Where Wave copies the command files of the pipeline's required skills; null for a CLI without commands. */
  skillCommandsFolder: string | null;
  /** Tier defaults, what `default` means, price provider and temperature: the core's entry for the CLI. */
  models: AgentCliModels;
  /** How an attempt is prepared and its stream read. */
  runner: AgentCli;
}
