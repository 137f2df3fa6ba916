import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentCli } from '../../src/adapters/agent-cli.js';
import { AgentCliRunner } from '../../src/adapters/agent-process.js';
import { claudeCli } from '../../src/adapters/claude/descriptor.js';
import { buildClaudeArgs } from '../../src/adapters/claude/invocation.js';
import { CLAUDE_CLI } from '../../src/adapters/claude/runner.js';
import { buildCodexArgs } from '../../src/adapters/codex/invocation.js';
import { CodexStream } from '../../src/adapters/codex/outcome.js';
import { CODEX_CLI } from '../../src/adapters/codex/runner.js';
import { buildCursorArgs } from '../../src/adapters/cursor/invocation.js';
import { buildGeminiArgs } from '../../src/adapters/gemini/invocation.js';
import { GEMINI_CLI } from '../../src/adapters/gemini/runner.js';
import { buildOpenCodeArgs } from '../../src/adapters/opencode/invocation.js';
import { OPENCODE_CLI } from '../../src/adapters/opencode/runner.js';
import { copySessionHome, isSafeSessionId, resumeRefusal, usageOfAttempt } from '../../src/adapters/session.js';
import type { AdapterRunConfig, ContinueFrom } from '../../src/adapters/types.js';
import type { SpawnResult } from '../../src/process/spawn-spec.js';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { commandRunConfig, scratchPerTest } from './processes.js';

const SESSION = '3f2c9a7e-5b1d-4e8a-9c0f-1a2b3c4d5e6f';
const continueFrom = (sessionId = SESSION): ContinueFrom => ({ sessionId, previousAttemptDir: '/runs/r/steps/s/attempt-1', sessionTokens: { ...NO_TOKENS } });

function config(type: AdapterRunConfig['adapter']['type'], fields: Partial<AdapterRunConfig> = {}): AdapterRunConfig {
  return {
    runId: 'r',
    stepId: 's',
    attempt: 2,
    prompt: 'FEEDBACK',
    execType: 'prompt',
    workspace: '/ws',
    attemptDir: '/runs/r/steps/s/attempt-2',
    env: { PATH: '/usr/bin' },
    graceMs: 100,
    maxLineBytes: 1024,
    adapter: { name: type, type, env: {}, isolated: true, model: 'm' },
    ...fields,
  };
}

describe('the resume argv of each agent CLI', () => {
  it('claude: --resume <id>, the feedback on stdin as usual', () => {
    expect(buildClaudeArgs(config('claude', { continueFrom: continueFrom() }), '')).toEqual([
      ...['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--model', 'm'],
      ...['--resume', SESSION],
    ]);
    expect(buildClaudeArgs(config('claude'), '')).not.toContain('--resume');
  });

  it('codex: `exec … resume <thread id> <prompt>`, exec options before the subcommand', () => {
    expect(buildCodexArgs(config('codex', { continueFrom: continueFrom() }))).toEqual(['exec', '--json', '--skip-git-repo-check', '-C', '/ws', 'resume', SESSION, 'FEEDBACK']);
    expect(buildCodexArgs(config('codex'))).toEqual(['exec', '--json', '--skip-git-repo-check', '-C', '/ws', 'FEEDBACK']);
  });

  it('opencode: run --session <id>, the prompt last', () => {
    const args = buildOpenCodeArgs(config('opencode', { continueFrom: continueFrom('ses_df8d31228ffeT6zI6iUEVhr61s') }));
    expect(args.slice(-3)).toEqual(['--session', 'ses_df8d31228ffeT6zI6iUEVhr61s', 'FEEDBACK']);
    expect(buildOpenCodeArgs(config('opencode'))).not.toContain('--session');
  });

  it('gemini: --resume <session uuid> beside -p', () => {
    expect(buildGeminiArgs(config('gemini', { continueFrom: continueFrom() }))).toEqual([
      ...['-p', 'FEEDBACK', '--output-format', 'stream-json', '--yolo', '--skip-trust', '-m', 'm'],
      ...['--resume', SESSION],
    ]);
    expect(buildGeminiArgs(config('gemini'))).not.toContain('--resume');
  });

  it('cursor: the documented --resume <chat id>, the prompt last', () => {
    expect(buildCursorArgs(config('cursor', { continueFrom: continueFrom() }))).toEqual([
      ...['-p', '--output-format', 'stream-json', '--force', '--trust', '--model', 'm'],
      ...['--resume', SESSION, 'FEEDBACK'],
    ]);
  });

  it('an id that is not a plain token never reaches argv, and a command step never resumes', () => {
    for (const bad of ['--dangerously-skip-permissions', 'a b', '$(touch x)', 'a;b', '', 'x'.repeat(129), 'ses\n-1']) {
      const c = config('claude', { continueFrom: continueFrom(bad) });
      expect(buildClaudeArgs(c, '')).not.toContain('--resume');
      expect(buildCodexArgs({ ...c, adapter: { ...c.adapter, type: 'codex' } })).not.toContain('resume');
    }
    expect(buildGeminiArgs(config('gemini', { execType: 'command', continueFrom: continueFrom() }))).not.toContain('--resume');
  });
});

describe('session ids and refusals', () => {
  it('accepts the ids the CLIs report, refuses anything else', () => {
    for (const id of [SESSION, '01a2072c-930e-7932-992f-656e9c036452', 'ses_df8d31228ffeT6zI6iUEVhr61s', 'chat:42.a']) expect(isSafeSessionId(id), id).toBe(true);
    for (const id of [undefined, '', '-x', '../x', 'a/b', 'a b', 'é', 'x'.repeat(129)]) expect(isSafeSessionId(id), String(id)).toBe(false);
  });

  it.each([
    ['claude', CLAUDE_CLI, 'No conversation found with session ID: 11111111-2222-3333-4444-555555555555'],
    ['codex', CODEX_CLI, 'Codex exited with code 1 without a result:\nError: thread/resume: thread/resume failed: no rollout found for thread id 1111 (code -32600)'],
    ['opencode', OPENCODE_CLI, 'OpenCode exited with code 1 without a result:\n\x1b[91m\x1b[1mError: \x1b[0mSession not found'],
    [
      'gemini',
      GEMINI_CLI,
      'Gemini CLI exited with code 42 without a result:\nError resuming session: Invalid session identifier "1111".\n  Searched for sessions in /h/.gemini/tmp/ws/chats.',
    ],
  ])('%s: its unknown-session message (as observed) is a refusal, told in one line', (_name, cli, message) => {
    const reason = resumeRefusal(cli.refusedResume, message);
    expect(reason).toBeDefined();
    expect(reason).not.toContain('\n');
    expect(reason).not.toContain('\x1b');
    expect(resumeRefusal(cli.refusedResume, 'unexpected status 401 Unauthorized')).toBeUndefined();
  });

  it('takes the session total a Codex thread reports apart: the earlier attempts off, never below zero', () => {
    expect(usageOfAttempt({ input: 300, output: 60, cacheRead: 10, cacheWrite: 0 }, { input: 200, output: 40, cacheRead: 5, cacheWrite: 3 })).toEqual({
      input: 100,
      output: 20,
      cacheRead: 5,
      cacheWrite: 0,
    });
    const stream = new CodexStream({ input: 6900, output: 36, cacheRead: 5, cacheWrite: 0 });
    stream.line('{"type":"thread.started","thread_id":"01a2072c-930e-7932-992f-656e9c036452"}');
    const events = stream.line('{"type":"turn.completed","usage":{"input_tokens":13882,"cached_input_tokens":10,"output_tokens":72}}');
    const usage = events.find((e) => e.kind === 'usage');
    expect(usage).toMatchObject({ tokens: { input: 6972, output: 36, cacheRead: 5 } });
    const spawn = { exitCode: 0, signal: null, stderrTail: '' } as SpawnResult;
    expect(stream.finish(spawn)).toMatchObject({ ok: true, sessionId: '01a2072c-930e-7932-992f-656e9c036452', tokens: { input: 6972, output: 36, cacheRead: 5 } });
  });
});

describe("copying the previous attempt's config home", () => {
  const scratch = () => mkdtempSync(join(tmpdir(), 'wave-session-home-'));

  it('copies files and folders, keeps a relative link inside as a link, leaves out links leading out, absolute links and pipes', async () => {
    const dir = scratch();
    const from = join(dir, 'attempt-1', 'home');
    mkdirSync(join(from, '.claude', 'projects', '-ws'), { recursive: true });
    writeFileSync(join(from, '.claude', 'projects', '-ws', `${SESSION}.jsonl`), '{"type":"user"}\n');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    symlinkSync(join('projects', '-ws'), join(from, '.claude', 'latest'));
    symlinkSync('../../secret.txt', join(from, 'escape'));
    symlinkSync(join(dir, 'secret.txt'), join(from, 'absolute'));
    execFileSync('mkfifo', [join(from, 'pipe')]);
    const to = join(dir, 'attempt-2', 'home');
    mkdirSync(to, { recursive: true });
    writeFileSync(join(to, 'settings.json'), '{}');

    expect(await copySessionHome(from, to)).toBe(true);
    expect(readFileSync(join(to, '.claude', 'projects', '-ws', `${SESSION}.jsonl`), 'utf8')).toBe('{"type":"user"}\n');
    expect(lstatSync(join(to, '.claude', 'latest')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(to, '.claude', 'latest'))).toBe(join('projects', '-ws'));
    for (const left of ['escape', 'absolute', 'pipe']) expect(lstatSync(join(to, left), { throwIfNoEntry: false }), left).toBeUndefined();
    expect(readFileSync(join(to, 'settings.json'), 'utf8')).toBe('{}');
  });

  it('does nothing when the previous attempt had no home (a CLI using the real HOME)', async () => {
    const dir = scratch();
    expect(await copySessionHome(join(dir, 'attempt-1', 'home'), join(dir, 'attempt-2', 'home'))).toBe(false);
    expect(existsSync(join(dir, 'attempt-2'))).toBe(false);
  });
});

describe('a continued attempt through the shared agent runner', () => {
  let dir: string;
  const groups = scratchPerTest((scratch) => (dir = scratch));

  /** A CLI played by /bin/sh: prints its session file from the isolated home, or refuses as OpenCode does when it has none. */
  const SHELL_CLI: AgentCli = {
    async prepare(config) {
      const script = 'if [ -f "$H/session" ]; then cat "$H/session"; else echo "Error: Session not found" >&2; exit 1; fi';
      return { args: ['-c', script], env: { ...config.env, H: join(config.attemptDir, 'home') } };
    },
    stream: () => ({
      line: () => [],
      finish: (spawn) =>
        spawn.exitCode === 0
          ? { ok: true, text: spawn.tail.trim(), tokens: { ...NO_TOKENS } }
          : { ok: false, text: '', tokens: { ...NO_TOKENS }, failure: { class: 'non_zero_exit', message: `exit ${spawn.exitCode}` } },
    }),
    refusedResume: /Session not found/,
  };
  /** Claude's descriptor with the shell as its binary and runner. */
  const SHELL_DESCRIPTOR = { ...claudeCli, binary: 'sh', runner: SHELL_CLI };

  const attempt = (n: number, extra: Partial<AdapterRunConfig>) =>
    commandRunConfig(dir, groups, {
      attempt: n,
      attemptDir: join(dir, `attempt-${n}`),
      execType: 'prompt',
      adapter: { name: 'sh', type: 'claude', env: {}, isolated: true },
      ...extra,
    });

  it("starts in a copy of the previous attempt's home, where the session is", async () => {
    mkdirSync(join(dir, 'attempt-1', 'home'), { recursive: true });
    writeFileSync(join(dir, 'attempt-1', 'home', 'session'), 'the earlier conversation');
    mkdirSync(join(dir, 'attempt-2'), { recursive: true });
    const result = await new AgentCliRunner(SHELL_DESCRIPTOR).run(
      attempt(2, { continueFrom: { ...continueFrom(), previousAttemptDir: join(dir, 'attempt-1') } }),
      new AbortController().signal,
      () => {},
    );
    expect(result).toMatchObject({ ok: true, text: 'the earlier conversation' });
    expect(result.resumeRefused).toBeUndefined();
  });

  it('reports a refused resume (the CLI does not know the session) with its reason', async () => {
    mkdirSync(join(dir, 'attempt-2'), { recursive: true });
    const result = await new AgentCliRunner(SHELL_DESCRIPTOR).run(
      attempt(2, { continueFrom: { ...continueFrom(), previousAttemptDir: join(dir, 'attempt-1') } }),
      new AbortController().signal,
      () => {},
    );
    expect(result).toMatchObject({ ok: false, resumeRefused: 'Error: Session not found' });
  });

  it('a failure of an attempt that was not continuing is never a refused resume', async () => {
    mkdirSync(join(dir, 'attempt-1'), { recursive: true });
    const result = await new AgentCliRunner(SHELL_DESCRIPTOR).run(attempt(1, {}), new AbortController().signal, () => {});
    expect(result.ok).toBe(false);
    expect(result.resumeRefused).toBeUndefined();
  });
});
