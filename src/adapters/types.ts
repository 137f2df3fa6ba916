import type { FailureClass } from '../core/errors/error-codes.js';
import type { Failure } from '../core/errors/failure.js';
import type { AdapterType, ResolvedAdapter, ResolvedPersona } from '../core/resolved-adapter.js';
import type { ResolvedSkill } from '../core/resolved-skill.js';
import type { TokenUsage } from '../core/models/tokens.js';
import type { SpawnResult, SpawnSpec } from '../process/spawn-spec.js';
import type { EgressDecision, Resolver } from '../sandbox/egress/egress-gate.js';

/** One typed event parsed from an agent's stream (or produced by a runner). */
export type StreamEvent =
  | { kind: 'system'; subtype?: string; sessionId?: string; model?: string; message?: string }
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_use'; id?: string; name: string; target?: string }
  | { kind: 'tool_result'; id?: string; isError: boolean; content?: string }
  | { kind: 'retry'; attempt?: number; delayMs?: number; status?: number; message?: string }
  | { kind: 'error'; message: string; failureClass?: FailureClass }
  | { kind: 'usage'; tokens: TokenUsage; costUsd?: number }
  | { kind: 'result'; ok: boolean; text?: string; subtype?: string; tokens?: TokenUsage; costUsd?: number }
  /** Raw output arrived (at most every ~250 ms): how much, and for a plain process the last line it printed (redacted); never stored as a stream event. */
  | { kind: 'output'; bytes: number; lastLine?: string };

/** Everything a runner needs for one attempt; the executor builds it, the runner never reads config. */
export interface AdapterRunConfig {
  runId: string;
  stepId: string;
  attempt: number;
  adapter: ResolvedAdapter;
  persona?: ResolvedPersona;
  /** The skills copied into the CLI's skills folder of the workspace (manifest, persona, pipeline and step skills). */
  skills?: readonly ResolvedSkill[];
  /** Claude Code: command files (absolute) of the pipeline's required skills, copied into `.claude/commands/`. */
  skillCommands?: readonly string[];
  model?: string;
  /** The rendered prompt (prompt steps) or the shell command (command steps). */
  prompt: string;
  /** `command` runs `prompt` through /bin/sh -c; `prompt` hands it to the adapter. */
  execType: 'prompt' | 'command';
  /**
   * A command's template values: the command refers to values[n - 1] as "$WAVE_VALUE_n", and the runner hands each
   * to the shell in the environment or a file, never as shell text.
   */
  values?: readonly string[];
  /** Absolute path of the step's workspace: the process's cwd unless `cwd` is set. */
  workspace: string;
  /** A folder inside the workspace the process runs in instead (a command step's copy of a `./` mount). */
  cwd?: string;
  /** Absolute folder where the runner writes `stdout` and `stderr`. */
  attemptDir: string;
  /** The curated environment, complete: the runner adds only its own CLI's variables. */
  env: Record<string, string>;
  /** Grace between SIGTERM and SIGKILL to the process group. */
  graceMs: number;
  /** How long a stopped process's output pipes are still read (runtime.timeouts.stdout_drain_seconds). */
  drainMs?: number;
  /** Lines longer than this are counted and skipped. */
  maxLineBytes: number;
  /** Told the pid of the process-group leader once it starts, so a later resume can stop an orphan. */
  onSpawn?: (pid: number) => void;
  /** Starts the attempt's process inside the run's sandbox; spawnInGroup on the host when absent. */
  spawn?: (spec: SpawnSpec, signal: AbortSignal) => Promise<SpawnResult>;
  /** Continue the agent session an earlier attempt of the step left (a retry): `prompt` is then only the feedback. */
  continueFrom?: ContinueFrom;
  /** A browser step's own: where its results go and the egress its traffic goes through. */
  browser?: BrowserAttempt;
  /** Keep the attempt's HTTP exchange in its folder for a replay (runtime.recording; the llm adapter's http.ndjson). */
  recordHttp?: boolean;
  /** Set only when the run's trace goes to a collector: the attempt's span, which the CLI's own spans join. */
  telemetry?: AttemptTelemetry;
}

/** The trace an attempt's process reports into: its parent span and the collector the run exports to. */
export interface AttemptTelemetry {
  /** The attempt's span as a W3C `traceparent` (`00-<trace id>-<span id>-01`). */
  traceparent: string;
  /** The collector's OTLP/HTTP traces URL. */
  tracesUrl: string;
  /** The headers the collector wants (a key, a tenant): secrets, redacted wherever Wave writes. */
  headers: Record<string, string>;
  /** Attributes naming the run, step and attempt, for a CLI whose spans cannot take a parent. */
  resource: Record<string, string>;
}

/** What a browser attempt needs beyond the action list (`prompt`). */
export interface BrowserAttempt {
  /** Absolute paths of the step's file artifacts the actions do not write: a successful run fills those still absent with its results (as Wave does). */
  resultFiles: readonly string[];
  /** With a sandbox backend: the step's allowlist, applied by an egress proxy every request of the browser goes through. */
  egress?: { allowedDomains: readonly string[]; resolver?: Resolver; onDecision: (decision: EgressDecision) => void };
}

/** What a CLI's environment is built from: the adapter, the curated env, and the attempt folder an isolated home lives in. */
export type CliEnvInput = Pick<AdapterRunConfig, 'adapter' | 'env' | 'attemptDir' | 'telemetry'>;

/** The session a retry continues, from the step's previous attempt on the same adapter. */
export interface ContinueFrom {
  /** The id the previous attempt's CLI reported, already checked by isSafeSessionId (adapters/session.ts). */
  sessionId: string;
  /** The previous attempt's folder: its `home` (an isolated or sandboxed CLI's config home) holds the session's state. */
  previousAttemptDir: string;
  /** What the session used before this attempt, for a CLI whose usage figures count the whole session (Codex). */
  sessionTokens: TokenUsage;
  /** What the session cost before this attempt, for a CLI whose cost figure counts the whole resumed session (Claude). */
  sessionCostUsd?: number;
}

export interface AdapterResult {
  ok: boolean;
  exitCode: number | null;
  signal: string | null;
  /** The result text: the agent's final answer, or a command's stdout (its last MiB). */
  text: string;
  sessionId?: string;
  tokens: TokenUsage;
  costUsd?: number;
  subtype?: string;
  failure?: Failure;
  /** Lines that were too long or unparseable: counted and skipped. */
  skippedLines: number;
  /** The last 2,000 characters of output, for a retry's prompt. */
  outputTail: string;
  /** The command and arguments the process was started with, before a sandbox wrapped it (a process was started). */
  argv?: string[];
  /** `<package>@<version>` of the npm package that ships the binary started, when one does. */
  cliVersion?: string;
  durationMs: number;
  /** Set when the CLI refused to continue `continueFrom`'s session before doing any work: why, in one line. */
  resumeRefused?: string;
  /** Set when the CLI reported `sessionId` but kept nothing of it that a later attempt could resume: why, in one line. */
  sessionNotSaved?: string;
}

/** The socket every adapter plugs into. `signal` aborts: the runner kills its process group and resolves. */
export interface AdapterRunner {
  readonly type: AdapterType;
  /** True when the runner reports a sessionId and honours `continueFrom` (the agent CLIs). */
  readonly continuesSessions?: boolean;
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult>;
}
