import { readFile, readdir, symlink, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARGUMENT_MAX_BYTES, PROMPT_ARGUMENT_BYTES } from '../../src/process/argument-limit.js';
import { buildCodexArgs } from '../../src/adapters/codex/invocation.js';
import { buildGeminiArgs } from '../../src/adapters/gemini/invocation.js';
import { buildOpenCodeArgs } from '../../src/adapters/opencode/invocation.js';
import { ENV_TOTAL_BYTES, ENV_VALUE_BYTES, planShellValues } from '../../src/adapters/process/command-values.js';
import { buildProcessInvocation } from '../../src/adapters/process/invocation.js';
import { ProcessRunner } from '../../src/adapters/process/runner.js';
import { spawnFailure } from '../../src/process/spawn-failure.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';
import type { ResolvedAdapter } from '../../src/core/resolved-adapter.js';
import { commandRunConfig, scratchPerTest } from './processes.js';

let dir: string;
const groups = scratchPerTest((scratch) => (dir = scratch));

const config = (extra: Partial<AdapterRunConfig>): AdapterRunConfig => commandRunConfig(dir, groups, extra);

const run = (extra: Partial<AdapterRunConfig>) => new ProcessRunner().run(config(extra), new AbortController().signal, () => {});

describe('command values: environment or file, never shell text', () => {
  it('puts small values in the environment and large ones, or ones holding a NUL, in files', () => {
    const small = 'x'.repeat(ENV_VALUE_BYTES);
    const large = 'y'.repeat(ENV_VALUE_BYTES + 1);
    const planned = planShellValues([small, large, 'a\0b', 'tail']);
    expect(Object.keys(planned.env)).toEqual(['WAVE_VALUE_1', 'WAVE_VALUE_4']);
    expect([...planned.files.keys()]).toEqual([2, 3]);
  });

  it('keeps the environment within its total budget: later values go to files', () => {
    const values = Array.from({ length: 6 }, (_, i) => String(i).repeat(ENV_VALUE_BYTES));
    const planned = planShellValues(values);
    expect(Object.keys(planned.env)).toHaveLength(ENV_TOTAL_BYTES / ENV_VALUE_BYTES);
    expect(planned.files.size).toBe(6 - ENV_TOTAL_BYTES / ENV_VALUE_BYTES);
  });

  it('hands a 300 KB value with trailing newlines through a file, byte for byte, and removes the file afterwards', async () => {
    const value = `${"it's $(touch PWNED) `x`\n".repeat(12_000)}\n\n`;
    const result = await run({ prompt: 'printf \'%s\' "$WAVE_VALUE_1" > got; printf \'%s\' "$WAVE_VALUE_2" > small', values: [value, 'small one'] });
    expect(result.ok, result.failure?.message).toBe(true);
    expect(await readFile(join(dir, 'got'), 'utf8')).toBe(value);
    expect(await readFile(join(dir, 'small'), 'utf8')).toBe('small one');
    expect(await readdir(join(dir, '.wave', 'values'))).toEqual([]);
    expect(await readdir(dir)).not.toContain('PWNED');
  });

  it("keeps the command's line numbers when a value comes from a file", async () => {
    const result = await run({ prompt: 'printf %s "$WAVE_VALUE_1" > /dev/null\nwave_no_such_command_here', values: ['z'.repeat(200_000)] });
    expect(result.ok).toBe(false);
    expect(result.failure?.message).toMatch(/2: wave_no_such_command_here: not found/);
    // The label names the command as written, not the statements that read its values.
    expect(result.failure?.message).toContain('command "printf %s "$WAVE_VALUE_1" > /dev/null"');
  });

  it('refuses to write values through a .wave symlink that leads out of the workspace', async () => {
    const outside = join(dir, 'outside');
    const workspace = join(dir, 'ws');
    await mkdir(outside);
    await mkdir(workspace);
    await symlink(outside, join(workspace, '.wave'));
    const result = await run({ workspace, prompt: 'true', values: ['v'.repeat(200_000)] });
    expect(result.failure?.class).toBe('spawn_failed');
    expect(result.failure?.message).toContain('leads outside it');
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('prompts too large for one argument', () => {
  const big = 'p'.repeat(PROMPT_ARGUMENT_BYTES + 1);
  const agent = (type: ResolvedAdapter['type']): AdapterRunConfig => config({ execType: 'prompt', prompt: big, adapter: { name: 'agent', type, env: {}, isolated: true } });

  it('Codex gets `-` and the prompt on stdin; Gemini no -p; OpenCode no message; a small prompt stays an argument', () => {
    expect(buildCodexArgs(agent('codex')).at(-1)).toBe('-');
    expect(buildGeminiArgs(agent('gemini'))).not.toContain('-p');
    expect(buildGeminiArgs(agent('gemini'))).not.toContain(big);
    expect(buildOpenCodeArgs(agent('opencode'))).not.toContain(big);
    expect(buildCodexArgs({ ...agent('codex'), prompt: 'small' }).at(-1)).toBe('small');
    expect(buildGeminiArgs({ ...agent('gemini'), prompt: 'small' }).slice(0, 2)).toEqual(['-p', 'small']);
    expect(buildOpenCodeArgs({ ...agent('opencode'), prompt: 'small' }).at(-1)).toBe('small');
  });

  it('a process adapter whose {{prompt}} argument would pass the limit fails before starting, naming it', () => {
    const adapter: ResolvedAdapter = { name: 'tool', type: 'process', binary: 'tool', args: ['--text={{prompt}}'], env: {}, isolated: false };
    // `--text=` is 7 bytes, and the limit counts the argument's terminating NUL.
    const fits = buildProcessInvocation(config({ execType: 'prompt', adapter, prompt: 'a'.repeat(ARGUMENT_MAX_BYTES - 8) }));
    expect('failure' in fits).toBe(false);
    const refused = buildProcessInvocation(config({ execType: 'prompt', adapter, prompt: 'a'.repeat(ARGUMENT_MAX_BYTES - 7) }));
    expect('failure' in refused && refused.failure).toMatchObject({
      class: 'spawn_failed',
      message: expect.stringContaining(`is ${ARGUMENT_MAX_BYTES} bytes, and Linux takes at most ${ARGUMENT_MAX_BYTES} bytes (128 KiB)`),
      hint: expect.stringContaining('Remove {{prompt}} from adapters.tool.args'),
    });
  });

  it('an E2BIG from the system is explained, not passed on raw', () => {
    const error = Object.assign(new Error('spawn E2BIG'), { code: 'E2BIG', syscall: 'spawn sh' });
    const failure = spawnFailure(error, { command: 'sh', cwd: dir, env: {} });
    expect(failure.message).toContain('too large (E2BIG)');
    expect(failure.hint).toContain('128 KiB');
  });
});
