import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentCliRunner } from '../../src/adapters/agent-process.js';
import { PROMPT_ARGUMENT_BYTES } from '../../src/process/argument-limit.js';
import { cursorCli } from '../../src/adapters/cursor/descriptor.js';
import type { AdapterResult, AdapterRunConfig, StreamEvent } from '../../src/adapters/types.js';
import { commandRunConfig, scratchPerTest } from './processes.js';

// cursor-agent cannot be installed offline: a stand-in replays its documented stream-json and records its argv.
const STAND_IN = fileURLToPath(new URL('../fixtures/cursor-agent/cursor-agent', import.meta.url));

let dir: string;
const groups = scratchPerTest((scratch) => (dir = scratch));

interface StandInRecord {
  argv: string[];
  stdin: string;
  env: { CURSOR_API_KEY?: string; CURSOR_CONFIG_DIR?: string };
  agentsMd?: string;
  cliJson?: string;
}

function cursorConfig(scenario: string, extra: Partial<AdapterRunConfig> = {}): AdapterRunConfig {
  return commandRunConfig(dir, groups, {
    adapter: { name: 'cursor', type: 'cursor', binary: STAND_IN, model: 'gpt-5', apiKeyEnv: 'MY_CURSOR_KEY', env: {}, isolated: true },
    persona: { name: 'dev', systemPrompt: 'CURSOR PERSONA MARKER', allowedTools: ['Read', 'Bash(git status)'], deniedTools: ['Write(**/*.env)'], allowedDomains: [], skills: [] },
    prompt: 'Do the task.',
    execType: 'prompt',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', MY_CURSOR_KEY: 'key-123', CURSOR_STANDIN_SCENARIO: scenario, CURSOR_STANDIN_LOG: join(dir, 'stand-in.ndjson') },
    ...extra,
  });
}

async function run(config: AdapterRunConfig): Promise<{ result: AdapterResult; events: StreamEvent[]; record?: StandInRecord }> {
  const events: StreamEvent[] = [];
  const result = await new AgentCliRunner(cursorCli).run(config, new AbortController().signal, (event) => {
    if (event.kind !== 'output') events.push(event);
  });
  const log = join(dir, 'stand-in.ndjson');
  const record = existsSync(log) ? (JSON.parse(readFileSync(log, 'utf8').trim().split('\n').at(-1)!) as StandInRecord) : undefined;
  return { result, events, record };
}

describe('the cursor adapter, against a stand-in replaying the documented stream-json', () => {
  it('starts cursor-agent headless with the prompt as its last argument, the key, an isolated config home, AGENTS.md and permissions', async () => {
    const { record } = await run(cursorConfig('success'));
    expect(record?.argv).toEqual(['-p', '--output-format', 'stream-json', '--force', '--trust', '--model', 'gpt-5', 'Do the task.']);
    expect(record?.stdin).toBe('');
    expect(record?.env).toEqual({ CURSOR_API_KEY: 'key-123', CURSOR_CONFIG_DIR: join(dir, 'attempt-1', 'home') });
    expect(record?.agentsMd).toContain('CURSOR PERSONA MARKER');
    expect(JSON.parse(record!.cliJson!)).toEqual({ permissions: { allow: ['Read(**)', 'Shell(git)'], deny: ['Write(**/*.env)'] } });
  });

  it('turns the stream into events (text, tool use and results, tokens) and the result into a success; a line that is not JSON is counted', async () => {
    const { result, events } = await run(cursorConfig('success'));
    expect(events.map((e) => (e.kind === 'tool_use' ? `tool_use ${e.name} ${e.target}` : e.kind === 'tool_result' ? `tool_result ${e.isError ? 'error' : 'ok'}` : e.kind))).toEqual(
      ['system', 'text', 'tool_use write notes.txt', 'tool_result ok', 'tool_use shell test -f missing.txt', 'tool_result error', 'text', 'usage', 'result'],
    );
    expect(result).toMatchObject({
      ok: true,
      exitCode: 0,
      text: 'Writing notes.txt.Wrote notes.txt.',
      sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
      subtype: 'success',
      tokens: { input: 1200, output: 85, cacheRead: 300, cacheWrite: 0 },
      skippedLines: 1,
    });
    expect(result.failure).toBeUndefined();
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('written by cursor\n');
  });

  it('hands a prompt too large for an argument to stdin', async () => {
    const prompt = 'x'.repeat(PROMPT_ARGUMENT_BYTES + 1);
    const { result, record } = await run(cursorConfig('success', { prompt }));
    expect(result.ok).toBe(true);
    expect(record?.argv).toEqual(['-p', '--output-format', 'stream-json', '--force', '--trust', '--model', 'gpt-5']);
    expect(record?.stdin).toBe(prompt);
  });

  it.each([
    ['error-result', 'rate_limited', 'Usage limit reached: 429 Too Many Requests'],
    [
      'auth',
      'auth_failed',
      "cursor-agent exited with code 1 without a result:\nError: Authentication required. Please run 'cursor-agent login' first, or set CURSOR_API_KEY environment variable.",
    ],
    ['crash', 'non_zero_exit', 'cursor-agent exited with code 2 without a result:\nfatal: connection reset'],
  ])('%s: fails as %s', async (scenario, failureClass, message) => {
    const { result } = await run(cursorConfig(scenario));
    expect(result.ok).toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(result.failure).toMatchObject({ class: failureClass, message });
    if (failureClass === 'auth_failed') expect(result.failure?.hint).toContain('cursor-agent login');
  });

  it('a binary that is not installed: spawn_failed with the hint saying how to install cursor-agent', async () => {
    const config = cursorConfig('success');
    const { result, record } = await run({ ...config, adapter: { ...config.adapter, binary: undefined }, env: { ...config.env, PATH: dir } });
    expect(record).toBeUndefined();
    expect(result.failure).toEqual({
      class: 'spawn_failed',
      message: 'could not start "cursor-agent": not found on PATH or in node_modules/.bin',
      hint: 'Install it: curl https://cursor.com/install -fsS | bash, or set adapters.cursor.binary to its full path.',
    });
  });
});
