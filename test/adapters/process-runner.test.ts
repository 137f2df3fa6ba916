import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cutMarker, STORED_OUTPUT_BYTES } from '../../src/stream/stored-output-cap.js';
import { describe, expect, it } from 'vitest';
import { buildCuratedEnv, secretValuesOf } from '../../src/process/environment.js';
import { ProcessRunner } from '../../src/adapters/process/runner.js';
import type { AdapterRunConfig, StreamEvent } from '../../src/adapters/types.js';
import type { ResolvedAdapter } from '../../src/core/resolved-adapter.js';
import { REDACTED, Redactor } from '../../src/redact.js';
import { commandRunConfig, firstMatch, fixture, isRunning, scratchPerTest } from './processes.js';

let dir: string;
const groups = scratchPerTest((scratch) => (dir = scratch));

const processAdapter = (extra: Partial<ResolvedAdapter> = {}): ResolvedAdapter => ({ name: 'tool', type: 'process', env: {}, isolated: false, ...extra });

const config = (extra: Partial<AdapterRunConfig>): AdapterRunConfig => commandRunConfig(dir, groups, extra);

async function run(extra: Partial<AdapterRunConfig>, options: { runner?: ProcessRunner; signal?: AbortSignal } = {}) {
  const events: StreamEvent[] = [];
  const runner = options.runner ?? new ProcessRunner();
  const result = await runner.run(config(extra), options.signal ?? new AbortController().signal, (event) => events.push(event));
  return { result, events };
}

const attemptFile = (name: string) => readFile(join(dir, 'attempt-1', name), 'utf8');

describe('ProcessRunner: command steps', () => {
  it('stops reading a pipe held open by an escaped process after drainMs (runtime.timeouts.stdout_drain_seconds)', async () => {
    // The setsid'd sleep leaves the step's process group but keeps its stdout open: only the drain limit ends the read.
    const started = Date.now();
    const { result } = await run({ prompt: 'setsid sleep 30 & echo "$!"', drainMs: 300 });
    const elapsed = Date.now() - started;
    process.kill(Number(result.text.trim()), 'SIGKILL');
    expect(result.ok).toBe(true);
    // The default drain is 5 s: well under it shows the configured 300 ms was used.
    expect(elapsed).toBeLessThan(4000);
  });

  it('runs the command through /bin/sh -c in the workspace and returns its stdout', async () => {
    const { result } = await run({ prompt: 'pwd; echo "$WAVE_STEP_ID" | tr a-z A-Z; echo to-stderr >&2' });
    expect(result).toMatchObject({ ok: true, exitCode: 0, signal: null, skippedLines: 0 });
    expect(result.failure).toBeUndefined();
    expect(result.text).toBe(`${dir}\n\n`);
    expect(await attemptFile('stdout')).toBe(`${dir}\n\n`);
    expect(await attemptFile('stderr')).toBe('to-stderr\n');
    expect(result.outputTail).toContain('to-stderr');
    expect(result.tokens).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  });

  it('fails a non-zero exit with the code and the stderr tail in the message', async () => {
    const { result } = await run({ prompt: 'echo "it broke: missing input.txt" >&2; exit 7' });
    expect(result.ok).toBe(false);
    expect(result.exitCode).toBe(7);
    expect(result.failure?.class).toBe('non_zero_exit');
    expect(result.failure?.message).toContain('exited with code 7');
    expect(result.failure?.message).toContain('it broke: missing input.txt');
  });

  it('emits throttled output events and no line events', async () => {
    const { events } = await run({ prompt: 'echo one; echo two; echo three >&2' });
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.kind === 'output')).toBe(true);
    expect(events.reduce((sum, event) => sum + (event.kind === 'output' ? event.bytes : 0), 0)).toBe('one\ntwo\nthree\n'.length);
  });
});

describe('ProcessRunner: prompt steps', () => {
  const tricky = 'Review this:\n  "quoted words" and \'single\' $HOME `tick` {{model}}\n\ttabs; rm -rf / # not a command';

  it('puts {{prompt}} into exactly one argument and {{model}} where asked', async () => {
    const adapter = processAdapter({
      binary: process.execPath,
      args: [fixture('print-argv.mjs'), '--model', '{{model}}', '--prompt={{ prompt }}', 'fixed'],
      model: 'adapter-default',
    });
    const { result } = await run({ execType: 'prompt', adapter, model: 'big-model', prompt: tricky });
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.text)).toEqual({ argv: ['--model', 'big-model', `--prompt=${tricky}`, 'fixed'], stdin: '' });
  });

  it('sends the prompt to stdin, then closes it, when no argument takes it', async () => {
    const adapter = processAdapter({ binary: process.execPath, args: [fixture('print-argv.mjs'), '--model={{model}}'], model: 'adapter-default' });
    const { result } = await run({ execType: 'prompt', adapter, prompt: tricky });
    expect(result.ok).toBe(true);
    // print-argv answers only once stdin reaches its end.
    expect(JSON.parse(result.text)).toEqual({ argv: ['--model=adapter-default'], stdin: tricky });
  });

  it('fails a missing binary as spawn_failed with a hint naming it and the PATH searched', async () => {
    const adapter = processAdapter({ binary: 'wave-no-such-agent', args: ['{{prompt}}'] });
    const { result } = await run({ execType: 'prompt', adapter, env: { PATH: '/nowhere/bin:/usr/bin' } });
    expect(result.ok).toBe(false);
    expect(result.failure?.class).toBe('spawn_failed');
    expect(result.failure?.message).toContain('wave-no-such-agent');
    expect(result.failure?.hint).toContain('wave-no-such-agent');
    expect(result.failure?.hint).toContain('/nowhere/bin:/usr/bin');
  });

  it('fails an adapter without a binary as spawn_failed with a hint', async () => {
    const { result } = await run({ execType: 'prompt', adapter: processAdapter() });
    expect(result.failure?.class).toBe('spawn_failed');
    expect(result.failure?.hint).toContain('adapters.tool.binary');
  });
});

describe('ProcessRunner: environment and redaction', () => {
  it('hands the child only the curated env and hides passthrough values in both files', async () => {
    const passed = 'passthrough-secret-4f9c2a71';
    const hidden = 'non-passthrough-secret-8d1e6b03';
    const parent = { ...process.env, WAVE_TEST_PASSED: passed, WAVE_TEST_HIDDEN: hidden };
    const passthrough = ['WAVE_TEST_PASSED'];
    const env = buildCuratedEnv({ parent, passthrough, runId: 'r1', stepId: 's1', workspace: dir });
    const runner = new ProcessRunner({ redactor: new Redactor(secretValuesOf(parent, passthrough)) });
    const { result } = await run({ execType: 'command', prompt: `"${process.execPath}" "${fixture('print-env.mjs')}" WAVE_TEST_PASSED WAVE_TEST_HIDDEN`, env }, { runner });
    expect(result.ok).toBe(true);
    const stdout = await attemptFile('stdout');
    const stderr = await attemptFile('stderr');
    const report = JSON.parse(stdout.split('\n')[0]!) as { names: string[]; hashes: Record<string, string> };

    // The hidden one never reached the child; the passed one did, with its exact value.
    expect(report.names).not.toContain('WAVE_TEST_HIDDEN');
    expect(report.names).toContain('WAVE_TEST_PASSED');
    expect(report.hashes.WAVE_TEST_PASSED).toBe(createHash('sha256').update(passed).digest('hex'));
    // /bin/sh may add PWD, SHLVL and _ of its own; nothing else from the parent.
    const allowed = ['HOME', 'PATH', 'TERM', 'TMPDIR', 'WAVE_TEST_PASSED', 'WAVE_RUN_ID', 'WAVE_STEP_ID', 'WAVE_WORKSPACE', 'PWD', 'SHLVL', '_'];
    expect(report.names.filter((name) => !allowed.includes(name))).toEqual([]);

    // The child printed the passed value on both streams: the files hold [REDACTED] instead.
    for (const text of [stdout, stderr, result.text, result.outputTail]) expect(text).not.toContain(passed);
    expect(stdout).toContain(`stdout WAVE_TEST_PASSED=${REDACTED}`);
    expect(stderr).toContain(`stderr WAVE_TEST_PASSED=${REDACTED}`);
    expect(stdout).toContain('stdout WAVE_TEST_HIDDEN=\n');
  });

  it('redacts a secret in a failure message', async () => {
    const secret = 'leaked-in-stderr-77aa';
    const { result } = await run({ prompt: `echo "bad token ${secret}" >&2; exit 1` }, { runner: new ProcessRunner({ redactor: new Redactor([secret]) }) });
    expect(result.failure?.message).toContain(REDACTED);
    expect(result.failure?.message).not.toContain(secret);
  });
});

describe('ProcessRunner: aborts', () => {
  it.each([
    ['timeout', { class: 'timeout', message: 'step ran past its time limit of 1m' }],
    ['stalled', { class: 'stalled', message: 'no output or event for 30s' }],
    ['aborted', { class: 'aborted', message: 'interrupted (Ctrl-C)' }],
  ] as const)('turns an abort with a %s reason into that failure, leaving no process behind', async (_name, reason) => {
    const controller = new AbortController();
    const ready = firstMatch((event: StreamEvent) => (event.kind === 'output' ? true : undefined));
    const runner = new ProcessRunner();
    const running = runner.run(config({ prompt: `"${process.execPath}" "${fixture('group-ignores-term.mjs')}"` }), controller.signal, ready.feed);
    await ready.promise;
    controller.abort(reason);
    const result = await running;
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual(reason);
    const pids = (JSON.parse((await attemptFile('stdout')).trim()) as { pids: number[] }).pids;
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('reports a plain abort() as aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await run({ prompt: 'sleep 60' }, { signal: controller.signal });
    expect(result.failure?.class).toBe('aborted');
  });
});

describe('ProcessRunner: big output', () => {
  it('completes a step printing one 20 MB line, counting it as skipped', async () => {
    const { result } = await run({ prompt: `"${process.execPath}" "${fixture('long-line.mjs')}"` });
    expect(result.ok).toBe(true);
    expect(result.skippedLines).toBe(1);
    expect(result.text.endsWith('\nafter\n')).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(1024 * 1024);
  });

  it('streams 1 GB of stdout through while the memory of this process stays flat, storing the first 100 MiB and a cut marker', async () => {
    const gib = 1024 * 1024 * 1024;
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    // Sampling only measures; nothing waits on it.
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const { result } = await run({ prompt: `yes 'the quick brown fox jumps over the lazy dog' | head -c ${gib}` });
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(result.ok).toBe(true);
      const stored = join(dir, 'attempt-1', 'stdout');
      expect((await stat(stored)).size).toBe(STORED_OUTPUT_BYTES + Buffer.byteLength(cutMarker('stdout', STORED_OUTPUT_BYTES, gib - STORED_OUTPUT_BYTES)));
      const end = await readTail(stored, 400);
      expect(end).toContain(cutMarker('stdout', STORED_OUTPUT_BYTES, gib - STORED_OUTPUT_BYTES));
      expect(Buffer.byteLength(result.text)).toBe(1024 * 1024);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(200 * 1024 * 1024);
  }, 300_000);
});

/** The last `bytes` bytes of a file, as text. */
async function readTail(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(bytes, size));
    await handle.read(buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
