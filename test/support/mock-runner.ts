import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { sleep } from '../../src/core/sleep.js';
import { abortFailure } from '../../src/process/spawn-failure.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../../src/adapters/types.js';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import type { AdapterType } from '../../src/core/resolved-adapter.js';

/** What one scripted attempt does: write files, emit events, wait, then return a result. */
export interface MockScript {
  /** Files written into the workspace first, by path relative to it. */
  writeFiles?: Record<string, string>;
  /** Events emitted, in order, before the wait. */
  events?: StreamEvent[];
  /** How long the attempt "runs" after its events; an abort ends the wait at once. */
  delayMs?: number;
  /** Overrides of the result; the default is a success with `text` as stdout. */
  result?: Partial<AdapterResult>;
}

/** Decides each attempt's script from its config and attempt number. */
export type MockScriptFor = (config: AdapterRunConfig, attempt: number) => MockScript | Promise<MockScript>;

/**
 * A scripted AdapterRunner for the executor's unit tests; it starts no process. It stands in for the runner of a
 * real adapter type (registered in an AdapterRegistry under `type`), so production code has no "mock" type.
 */
export class MockRunner implements AdapterRunner {
  /** Every config this runner was asked to run, in order. */
  readonly calls: AdapterRunConfig[] = [];

  constructor(
    private readonly scriptFor: MockScriptFor,
    readonly type: AdapterType = 'claude',
  ) {}

  /** Plays the script for this attempt; rejects only when the script itself is wrong (a path outside the workspace). */
  async run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const started = Date.now();
    this.calls.push(config);
    const script = await this.scriptFor(config, config.attempt);
    for (const [path, content] of Object.entries(script.writeFiles ?? {})) {
      const target = insideWorkspace(config.workspace, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    if (!signal.aborted) for (const event of script.events ?? []) onEvent(event);
    const finishedInTime = await sleep(script.delayMs ?? 0, { signal });
    const result: AdapterResult = {
      ok: true,
      exitCode: 0,
      signal: null,
      text: '',
      tokens: { ...NO_TOKENS },
      skippedLines: 0,
      outputTail: '',
      ...script.result,
      durationMs: Date.now() - started,
    };
    // Like a real process, the attempt leaves its stdout and stderr in the attempt folder.
    await mkdir(config.attemptDir, { recursive: true });
    await writeFile(join(config.attemptDir, 'stdout'), result.text);
    await writeFile(join(config.attemptDir, 'stderr'), '');
    if (finishedInTime) return result;
    return { ...result, ok: false, exitCode: null, signal: 'SIGTERM', failure: abortFailure(signal.reason) };
  }
}

function insideWorkspace(workspace: string, path: string): string {
  const target = resolve(workspace, path);
  const rel = relative(workspace, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`mock script path escapes the workspace: ${path}`);
  return target;
}
