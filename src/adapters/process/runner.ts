import { Redactor } from '../../redact.js';
import { processFailure } from '../../process/spawn-failure.js';
import { spawnInGroup } from '../../process/spawn.js';
import { attemptOutputFiles } from '../attempt-output.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import { planShellValues, VALUE_FILES_DIR, writeValueFiles } from './command-values.js';
import { buildProcessInvocation } from './invocation.js';

/** The part of stdout kept as a command's result text. */
export const RESULT_TEXT_BYTES = 1024 * 1024;

/** A command's values as its attempt receives them: variables for its environment, and the script lines reading the larger ones from files. */
interface DeliveredValues {
  env: Record<string, string>;
  prelude: string;
}

export interface ProcessRunnerOptions {
  /** Hides the run's secrets in the stdout and stderr files, the tail and messages; token shapes only by default. */
  redactor?: Redactor;
}

/**
 * The generic process adapter: `command` steps through /bin/sh -c, and any CLI declared with a binary and an
 * argv template. Output goes to `stdout` and `stderr` in the attempt folder; a command's lines are not events.
 */
export class ProcessRunner implements AdapterRunner {
  readonly type = 'process' as const;
  private readonly redactor: Redactor;

  constructor(options: ProcessRunnerOptions = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  async run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const started = Date.now();
    const shellValues = planShellValues(config.execType === 'command' ? (config.values ?? []) : []);
    let written;
    try {
      written = await writeValueFiles(config.workspace, config.stepId, shellValues.files, config.cwd);
    } catch (error) {
      const message = `could not write the command's values into ${VALUE_FILES_DIR} of the workspace: ${error instanceof Error ? error.message : String(error)}`;
      return { ...emptyResult(Date.now() - started), failure: { class: 'spawn_failed', message } };
    }
    try {
      return await this.start(config, { env: shellValues.env, prelude: written.prelude }, started, signal, onEvent);
    } finally {
      await written.remove();
    }
  }

  private async start(config: AdapterRunConfig, values: DeliveredValues, started: number, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const invocation = buildProcessInvocation(config, values.prelude);
    if ('failure' in invocation) return { ...emptyResult(Date.now() - started), failure: invocation.failure };
    const spec = {
      command: invocation.command,
      args: invocation.args,
      cwd: config.cwd ?? config.workspace,
      // The values come last: a step's own WAVE_VALUE_n must not replace what its command refers to.
      env: { ...config.env, ...values.env },
      stdin: invocation.stdin,
      ...attemptOutputFiles(config),
      redactor: this.redactor,
      graceMs: config.graceMs,
      drainMs: config.drainMs,
      maxLineBytes: config.maxLineBytes,
      onOutput: (bytes: number) => onEvent({ kind: 'output', bytes }),
      onLastLine: (lastLine: string) => onEvent({ kind: 'output', bytes: 0, lastLine }),
      onSpawn: config.onSpawn,
      captureStdoutBytes: RESULT_TEXT_BYTES,
    };
    const result = await (config.spawn ?? spawnInGroup)(spec, signal);
    const failure = processFailure(result, spec, invocation.label, this.redactor);
    return {
      ok: failure === undefined,
      exitCode: result.exitCode,
      signal: result.signal,
      text: result.stdoutTail ?? '',
      tokens: { ...NO_TOKENS },
      ...(failure ? { failure } : {}),
      skippedLines: result.skippedLines,
      outputTail: result.tail,
      argv: [spec.command, ...spec.args],
      durationMs: Date.now() - started,
    };
  }
}

function emptyResult(durationMs: number): AdapterResult {
  return { ok: false, exitCode: null, signal: null, text: '', tokens: { ...NO_TOKENS }, skippedLines: 0, outputTail: '', durationMs };
}
