import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentCli } from '../../src/adapters/agent-cli.js';
import { AgentCliRunner } from '../../src/adapters/agent-process.js';
import { claudeCli } from '../../src/adapters/claude/descriptor.js';
import { chatMessages, geminiUnsavedSession } from '../../src/adapters/gemini/saved-session.js';
import { GEMINI_CLI } from '../../src/adapters/gemini/runner.js';
import { parseOpenCodeLine } from '../../src/adapters/opencode/parse.js';
import type { AdapterRunConfig, StreamEvent } from '../../src/adapters/types.js';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { commandRunConfig, firstMatch, scratchPerTest } from './processes.js';

const SESSION = '25c50894-5675-475c-8f3f-7ebc9f128395';
const CONTEXT = { id: 'd04923d3', timestamp: 't0', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] };
const HEADER = { sessionId: SESSION, projectHash: 'p', startTime: 't0', lastUpdated: 't0', kind: 'main' };
const PROMPT = { id: '8393e046', timestamp: 't1', type: 'user', content: [{ text: 'Do the task.' }] };
const ANSWER = { id: '8c1c4f0d', timestamp: 't2', type: 'gemini', content: 'Done.', thoughts: [], model: 'm' };

/** A Gemini CLI 0.61.0 chat file (JSONL) of these records. */
const chatFile = (...records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** The records Gemini CLI 0.61.0 wrote, as observed: after a 429, 500 or truncated stream it sets the messages back to its context alone. */
const AFTER_FAILED_REQUEST = chatFile(HEADER, { $set: { messages: [CONTEXT] } }, PROMPT, { $set: { lastUpdated: 't1' } }, { $set: { messages: [CONTEXT] } });
const ANSWERED = chatFile(HEADER, { $set: { messages: [CONTEXT] } }, PROMPT, ANSWER, { $set: { lastUpdated: 't2' } });
/** Stopped mid-answer (a time limit, a stall): the prompt was written and nothing took it back. */
const STOPPED = chatFile(HEADER, { $set: { messages: [CONTEXT] } }, PROMPT, { $set: { lastUpdated: 't1' } });

describe("Gemini CLI's chat files: whether a session was saved so that --resume takes it", () => {
  let dir: string;
  scratchPerTest((scratch) => (dir = scratch));

  /** Writes a chat file of SESSION into a Gemini config home under `dir`, as Gemini CLI names it. */
  const saveChat = (home: string, text: string, name = `session-2026-11-27T03-57-${SESSION.slice(0, 8)}.jsonl`) => {
    const chats = join(dir, home, '.gemini', 'tmp', 'ws', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, name), text);
  };
  const unsaved = (env: Record<string, string>) => geminiUnsavedSession({ attemptDir: join(dir, 'attempt-1') }, env, SESSION);

  it('folds the records as Gemini CLI does: $set replaces the messages, an id adds or replaces one, $rewindTo drops it and the rest', () => {
    expect(chatMessages(AFTER_FAILED_REQUEST).map((m) => m.id)).toEqual([CONTEXT.id]);
    expect(chatMessages(ANSWERED).map((m) => m.id)).toEqual([CONTEXT.id, PROMPT.id, ANSWER.id]);
    expect(chatMessages(chatFile(HEADER, PROMPT, ANSWER, { $rewindTo: PROMPT.id })).map((m) => m.id)).toEqual([]);
    expect(chatMessages(chatFile(HEADER, PROMPT, { ...PROMPT, content: 'again' })).map((m) => m.content)).toEqual(['again']);
    expect(chatMessages(JSON.stringify({ ...HEADER, messages: [PROMPT] })).map((m) => m.id)).toEqual([PROMPT.id]);
    expect(chatMessages('not json\n{"id":')).toEqual([]);
  });

  it('a failed request (429, 500, truncated stream) leaves nothing to resume: the session is not saved, and says why', async () => {
    saveChat('home', AFTER_FAILED_REQUEST);
    expect(await unsaved({ GEMINI_CLI_HOME: join(dir, 'home') })).toBe('Gemini CLI kept no message of it (it drops the turn a failed request began)');
  });

  it('an answered turn, or a prompt a stop did not take back, is saved', async () => {
    saveChat('home', ANSWERED);
    expect(await unsaved({ GEMINI_CLI_HOME: join(dir, 'home') })).toBeUndefined();
    saveChat('stopped', STOPPED);
    expect(await unsaved({ HOME: join(dir, 'stopped') })).toBeUndefined();
  });

  it("looks in GEMINI_CLI_HOME, the attempt's own home (a sandbox's HOME), then HOME; no chat file of the session is no session", async () => {
    expect(await unsaved({ HOME: join(dir, 'nowhere') })).toBe('Gemini CLI saved no chat file for it');
    saveChat(join('attempt-1', 'home'), ANSWERED);
    expect(await unsaved({ HOME: join(dir, 'nowhere') })).toBeUndefined();
  });

  it("another session's file that shares the id's first 8 characters is not this session", async () => {
    saveChat('home', chatFile({ ...HEADER, sessionId: `${SESSION.slice(0, 8)}-0000-0000-0000-000000000000` }, PROMPT, ANSWER));
    expect(await unsaved({ GEMINI_CLI_HOME: join(dir, 'home') })).toBe('Gemini CLI saved no chat file for it');
  });

  it('is the check the Gemini runner makes', async () => {
    saveChat('home', AFTER_FAILED_REQUEST);
    const config = { attemptDir: join(dir, 'attempt-1') } as AdapterRunConfig;
    expect(await GEMINI_CLI.unsavedSession?.(config, { GEMINI_CLI_HOME: join(dir, 'home') }, SESSION)).toMatch(/^Gemini CLI kept no message/);
  });
});

describe('what the shared agent runner keeps of a session and a cost', () => {
  let dir: string;
  const groups = scratchPerTest((scratch) => (dir = scratch));

  /** A CLI played by /bin/sh: prints its session line and a usage line with a cost, then exits or hangs. */
  const shellCli = (script: string, unsavedSession?: AgentCli['unsavedSession']): AgentCli => ({
    prepare: async (config) => ({ args: ['-c', script], env: config.env }),
    stream: () => ({
      line: (line): StreamEvent[] => {
        if (line.startsWith('session ')) return [{ kind: 'system', subtype: 'init', sessionId: line.slice('session '.length) }];
        if (line === 'usage') return [{ kind: 'usage', tokens: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.25 }];
        return [];
      },
      finish: (spawn) => ({ ok: spawn.exitCode === 0, text: '', tokens: { ...NO_TOKENS }, sessionId: 'ses-final' }),
    }),
    ...(unsavedSession ? { unsavedSession } : {}),
  });
  const run = async (cli: AgentCli, extra: Partial<AdapterRunConfig>, signal = new AbortController().signal, seen?: (event: StreamEvent) => void) => {
    const events: StreamEvent[] = [];
    const config = commandRunConfig(dir, groups, { execType: 'prompt', adapter: { name: 'sh', type: 'claude', env: {}, isolated: false }, ...extra });
    mkdirSync(config.attemptDir, { recursive: true });
    const onEvent = (event: StreamEvent) => {
      events.push(event);
      seen?.(event);
    };
    const result = await new AgentCliRunner({ ...claudeCli, binary: 'sh', runner: cli }).run(config, signal, onEvent);
    return { result, events };
  };

  it.each(['timeout', 'stalled'] as const)('an attempt stopped by its %s keeps the session id its stream reported', async (failureClass) => {
    const controller = new AbortController();
    const cli = shellCli('echo "session ses-early"; sleep 30');
    const reported = firstMatch((event: StreamEvent) => (event.kind === 'system' ? true : undefined));
    const running = run(cli, {}, controller.signal, reported.feed);
    await reported.promise;
    controller.abort({ class: failureClass, message: `stopped: ${failureClass}` });
    const { result } = await running;
    expect(result.failure?.class).toBe(failureClass);
    expect(result.sessionId).toBe('ses-early');
  });

  it("reports why the CLI kept nothing of its session, from the CLI's own check", async () => {
    const { result } = await run(
      shellCli('exit 0', async (_config, _env, sessionId) => `no chat file of ${sessionId}`),
      {},
    );
    expect(result).toMatchObject({ sessionId: 'ses-final', sessionNotSaved: 'no chat file of ses-final' });
    const saved = await run(
      shellCli('exit 0', async () => undefined),
      {},
    );
    expect(saved.result.sessionNotSaved).toBeUndefined();
  });

  it('a model served on this machine: the cost the CLI reports by its own prices is left out of the live events, as of the result', async () => {
    const local = await run(shellCli('echo usage'), { adapter: { name: 'sh', type: 'claude', env: {}, isolated: false, baseUrl: 'http://127.0.0.1:9/s/text' } });
    expect(local.events.filter((e) => e.kind === 'usage')).toEqual([{ kind: 'usage', tokens: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 } }]);
    expect(local.result.costUsd).toBeUndefined();
    const remote = await run(shellCli('echo usage'), {});
    expect(remote.events.filter((e) => e.kind === 'usage')).toMatchObject([{ costUsd: 0.25 }]);
  });
});

describe("OpenCode's step cost", () => {
  const stepFinish = (cost: number) =>
    JSON.stringify({
      type: 'step_finish',
      sessionID: 's',
      part: { type: 'step-finish', reason: 'stop', cost, tokens: { input: 100, output: 5, reasoning: 0, cache: { read: 0, write: 0 } } },
    });

  it('0 (a model without prices in its config) is no cost known, never a live $0; a real figure is kept', () => {
    expect(parseOpenCodeLine(stepFinish(0))).toEqual([{ kind: 'usage', tokens: { input: 100, output: 5, cacheRead: 0, cacheWrite: 0 } }]);
    expect(parseOpenCodeLine(stepFinish(0.0125))).toMatchObject([{ kind: 'usage', costUsd: 0.0125 }]);
  });
});
