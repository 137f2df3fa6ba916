import type { AgentCliType } from '../core/resolved-adapter.js';
import { Redactor } from '../redact.js';
import { resolveBinary } from '../process/binary.js';
import { packageVersionOf } from '../process/package-version.js';
import { otelEnv } from './telemetry-env.js';
import { abortFailure, limitFailure, outputFailure, spawnFailure } from '../process/spawn-failure.js';
import { spawnInGroup } from '../process/spawn.js';
import { attemptHome } from '../sandbox/types.js';
import type { SpawnResult } from '../process/spawn-spec.js';
import { attemptOutputFiles } from './attempt-output.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from './types.js';
import type { AgentCli, AgentCliDescriptor, AgentInvocation, CliInstall } from './agent-cli.js';
import { StreamReader } from './stream-reader.js';
import { cliEndpoints } from './model-endpoints.js';
import { attemptCost, servedLocally } from '../core/models/attempt-cost.js';
import { NO_TOKENS } from '../core/models/tokens.js';
import type { Failure } from '../core/errors/failure.js';
import { copySessionHome, resumeRefusal } from './session.js';
import { withIsolationHint } from './login/login-hints.js';
import { keyReaches } from './login/key-variables.js';

/** A spawn_failed Failure for a binary that is not installed, naming the npm package (or the installer) that provides it. */
export function missingBinaryFailure(binary: string, how: CliInstall, adapterName: string): Failure {
  const install = 'package' in how ? `Install it: npm install --save-dev ${how.package} (or globally with -g), or set` : `Install it: ${how.command}, or set`;
  return {
    class: 'spawn_failed',
    message: `could not start "${binary}": not found on PATH or in node_modules/.bin`,
    hint: `${install} adapters.${adapterName}.binary to its full path.`,
  };
}

/**
 * Runs one attempt of an agent CLI: resolves its binary, prepares, spawns it in its own group with stdin
 * closed, turns each stdout line into events, and folds the outcome into an AdapterResult. Never rejects.
 */
export async function runAgentCli(
  descriptor: AgentCliDescriptor<AgentCliType | 'plugin'>,
  config: AdapterRunConfig,
  signal: AbortSignal,
  onEvent: (event: StreamEvent) => void,
  redactor: Redactor,
): Promise<AdapterResult> {
  const cli = descriptor.runner;
  const started = Date.now();
  const failed = (failure: Failure, fields: Partial<AdapterResult> = {}): AdapterResult => failedAttempt(failure, Date.now() - started, fields);
  const binary = config.adapter.binary ?? descriptor.binary;
  const command = resolveBinary(binary, config.env);
  if (!command) return failed(missingBinaryFailure(binary, descriptor.install, config.adapter.name));
  try {
    // The session lives in the CLI's config home: an isolated or sandboxed attempt's own home starts as a copy of the last one's.
    if (config.continueFrom) await copySessionHome(isolatedHome({ attemptDir: config.continueFrom.previousAttemptDir }), isolatedHome(config));
  } catch (error) {
    const message = `could not copy the session's config home: ${error instanceof Error ? error.message : String(error)}`;
    return { ...failed({ class: 'spawn_failed', message }), resumeRefused: message };
  }
  let invocation: AgentInvocation;
  try {
    invocation = await cli.prepare(config);
  } catch (error) {
    return failed({ class: 'spawn_failed', message: `could not prepare the workspace: ${error instanceof Error ? error.message : String(error)}` });
  }
  const stream = cli.stream(config);
  const endpoints = cliEndpoints(config.adapter, config.env, descriptor.endpoint);
  const reader = new StreamReader(stream, onEvent, servedLocally(endpoints));
  const spec = {
    command,
    args: invocation.args,
    cwd: config.workspace,
    // A traced attempt's CLI reports its own spans under the attempt's (each CLI's own switches are in its invocation).
    env: config.telemetry ? { ...invocation.env, ...otelEnv(config.telemetry) } : invocation.env,
    stdin: invocation.stdin,
    ...attemptOutputFiles(config),
    redactor,
    graceMs: config.graceMs,
    drainMs: config.drainMs,
    maxLineBytes: config.maxLineBytes,
    onOutput: (bytes: number) => onEvent({ kind: 'output', bytes }),
    onLine: (line: string, from: 'stdout' | 'stderr') => reader.line(line, from),
    onSpawn: config.onSpawn,
  };
  const result = await (config.spawn ?? spawnInGroup)(spec, signal);
  const skippedLines = result.skippedLines + (stream.malformedLines ?? 0);
  const cliVersion = packageVersionOf(command);
  const base = {
    exitCode: result.exitCode,
    signal: result.signal,
    skippedLines,
    outputTail: result.tail,
    argv: [command, ...invocation.args],
    ...(cliVersion ? { cliVersion } : {}),
  };
  if (result.spawnError) return failed(spawnFailure(result.spawnError, spec), base);
  if (result.outputError) return failed(outputFailure(result.outputError), base);
  // A stopped attempt (its time limit, a stall) keeps the session its CLI reported, so a retry can continue it.
  if (result.aborted) return failed(abortFailure(result.abortReason), { ...base, ...(await sessionFields(cli, config, invocation.env, reader.sessionId)) });
  if (result.limitExceeded) return failed(limitFailure(result.limitExceeded), base);
  const outcome = stream.finish(result);
  const costUsd = await attemptCost(outcome.tokens, outcome.costUsd, config.adapter, config.model, endpoints);
  const failure = outcome.failure ? withIsolationHint({ ...outcome.failure, message: redactor.redact(outcome.failure.message) }, loginWouldHelp(config, descriptor)) : undefined;
  const ok = outcome.ok && failure === undefined;
  const refused = config.continueFrom && !ok ? resumeRefusal(cli.refusedResume, `${failure?.message ?? ''}\n${result.stderrTail}`) : undefined;
  return {
    ...base,
    ok,
    text: outcome.text,
    tokens: outcome.tokens,
    ...(await sessionFields(cli, config, invocation.env, outcome.sessionId)),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(outcome.subtype !== undefined ? { subtype: outcome.subtype } : {}),
    ...(failure ? { failure } : {}),
    ...(refused !== undefined ? { resumeRefused: refused } : {}),
    durationMs: Date.now() - started,
  };
}

/** The result of an attempt that failed before its CLI gave an outcome: nothing read, nothing used. */
export function failedAttempt(failure: Failure, durationMs: number, fields: Partial<AdapterResult> = {}): AdapterResult {
  return { ok: false, exitCode: null, signal: null, text: '', tokens: { ...NO_TOKENS }, skippedLines: 0, outputTail: '', ...fields, failure, durationMs };
}

/** Whether the user's CLI login is all an isolated adapter lacked: it has no base URL and no key reached it. */
function loginWouldHelp(config: AdapterRunConfig, descriptor: Pick<AgentCliDescriptor, 'keyVariables'>): boolean {
  const { adapter } = config;
  return adapter.isolated && !adapter.baseUrl && !keyReaches(adapter, descriptor.keyVariables, config.env);
}

/** The session fields of a result: the id the CLI reported and, when the CLI kept nothing of it to resume, why. */
async function sessionFields(
  cli: AgentCli,
  config: AdapterRunConfig,
  env: Record<string, string>,
  sessionId: string | undefined,
): Promise<Pick<AdapterResult, 'sessionId' | 'sessionNotSaved'>> {
  if (sessionId === undefined) return {};
  // A check that cannot read the CLI's files leaves the session to the CLI, which refuses it if need be.
  const unsaved = await cli.unsavedSession?.(config, env, sessionId).catch(() => undefined);
  return { sessionId, ...(unsaved !== undefined ? { sessionNotSaved: unsaved } : {}) };
}

/** The failure of a process that ended without the CLI's terminal event: its exit and the tail of stderr. */
export function exitedWithoutResult(spawn: SpawnResult, label: string): Failure {
  const how = spawn.exitCode === null ? `was killed by ${spawn.signal ?? 'a signal'}` : `exited with code ${spawn.exitCode}`;
  const stderr = spawn.stderrTail.trim().slice(-1_000);
  return { class: 'non_zero_exit', message: `${label} ${how} without a result${stderr ? `:\n${stderr}` : ''}` };
}

/** The config home an isolated adapter gets: the attempt's own HOME (a sandbox's too), so no user setting leaks in. */
export function isolatedHome(config: Pick<AdapterRunConfig, 'attemptDir'>): string {
  return attemptHome(config.attemptDir);
}

/** The adapter of one agent CLI: the shared process handling around that CLI's own invocation and stream. */
export class AgentCliRunner implements AdapterRunner {
  private readonly redactor: Redactor;
  /** Every agent CLI reports its session and can resume one. */
  readonly continuesSessions = true;

  /** The adapter type the CLI's descriptor stands for. */
  readonly type: AgentCliType;

  constructor(
    private readonly descriptor: AgentCliDescriptor,
    options: { redactor?: Redactor } = {},
  ) {
    this.type = descriptor.type;
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    return runAgentCli(this.descriptor, config, signal, onEvent, this.redactor);
  }
}
