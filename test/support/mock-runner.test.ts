import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdapterRunConfig, StreamEvent } from '../../src/adapters/types.js';
import { scratchPerTest } from '../adapters/processes.js';
import { MockRunner } from './mock-runner.js';

let dir: string;
scratchPerTest((scratch) => (dir = scratch));

const config = (attempt: number): AdapterRunConfig => ({
  runId: 'r',
  stepId: 's',
  attempt,
  adapter: { name: 'mock', type: 'process', env: {}, isolated: false },
  prompt: 'do it',
  execType: 'prompt',
  workspace: dir,
  attemptDir: join(dir, '.attempt', String(attempt)),
  env: {},
  graceMs: 100,
  maxLineBytes: 1024,
});

describe('MockRunner', () => {
  it('plays the script of each attempt: files, events, result', async () => {
    const runner = new MockRunner((_config, attempt) =>
      attempt === 1
        ? { result: { ok: false, exitCode: 1, failure: { class: 'rate_limited', message: 'slow down', retryAfterMs: 10 } } }
        : {
            writeFiles: { 'out/report.json': '{"ok":true}' },
            events: [
              { kind: 'text', text: 'working' },
              { kind: 'usage', tokens: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0 } },
            ],
            result: { text: 'done', tokens: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0 } },
          },
    );
    const events: StreamEvent[] = [];
    const first = await runner.run(config(1), new AbortController().signal, (event) => events.push(event));
    expect(first).toMatchObject({ ok: false, exitCode: 1, failure: { class: 'rate_limited', retryAfterMs: 10 } });

    const second = await runner.run(config(2), new AbortController().signal, (event) => events.push(event));
    expect(second).toMatchObject({ ok: true, exitCode: 0, text: 'done', tokens: { input: 3, output: 4 } });
    expect(events).toEqual([
      { kind: 'text', text: 'working' },
      { kind: 'usage', tokens: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0 } },
    ]);
    expect(await readFile(join(dir, 'out', 'report.json'), 'utf8')).toBe('{"ok":true}');
    expect(await readFile(join(dir, '.attempt', '2', 'stdout'), 'utf8')).toBe('done');
    expect(runner.calls.map((call) => call.attempt)).toEqual([1, 2]);
  });

  it('ends a long wait as soon as the signal aborts, with the failure it carries', async () => {
    const runner = new MockRunner(() => ({ delayMs: 600_000, events: [{ kind: 'text', text: 'started' }] }));
    const controller = new AbortController();
    const running = runner.run(config(1), controller.signal, (event) => {
      // Aborts once the runner is inside its wait.
      if (event.kind === 'text') setImmediate(() => controller.abort({ class: 'stalled', message: 'no output for 1s' }));
    });
    const result = await running;
    expect(result).toMatchObject({ ok: false, exitCode: null, failure: { class: 'stalled', message: 'no output for 1s' } });
  });

  it('refuses a script that writes outside the workspace', async () => {
    const runner = new MockRunner(() => ({ writeFiles: { '../escape.txt': 'x' } }));
    await expect(runner.run(config(1), new AbortController().signal, () => undefined)).rejects.toThrow(/escapes the workspace/);
  });
});
