import { join } from 'node:path';
import { Redactor } from '../../redact.js';
import { processFailure } from '../spawn-failure.js';
import { spawnInGroup } from '../spawn.js';
import { NO_TOKENS, type AdapterResult, type AdapterRunConfig, type AdapterRunner, type StreamEvent } from '../types.js';
import { buildProcessInvocation } from './invocation.js';

/** The part of stdout kept as a command's result text. */
export const RESULT_TEXT_BYTES = 1024 * 1024;

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
    const invocation = buildProcessInvocation(config);
    if ('missingBinary' in invocation) {
      return {
        ...emptyResult(Date.now() - started),
        failure: {
          class: 'spawn_failed',
          message: `adapter "${config.adapter.name}" has no binary to run`,
          hint: `Set adapters.${config.adapter.name}.binary in the manifest, or make the step a command (exec.type: command).`,
        },
      };
    }
    const spec = {
      command: invocation.command,
      args: invocation.args,
      cwd: config.workspace,
      env: config.env,
      stdin: invocation.stdin,
      stdoutPath: join(config.attemptDir, 'stdout'),
      stderrPath: join(config.attemptDir, 'stderr'),
      redactor: this.redactor,
      graceMs: config.graceMs,
      maxLineBytes: config.maxLineBytes,
      onOutput: (bytes: number) => onEvent({ kind: 'output', bytes }),
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
      durationMs: Date.now() - started,
    };
  }
}

function emptyResult(durationMs: number): AdapterResult {
  return { ok: false, exitCode: null, signal: null, text: '', tokens: { ...NO_TOKENS }, skippedLines: 0, outputTail: '', durationMs };
}
