import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeProject } from '../support/project.js';
import { FEEDBACK_HEADING, FIRST_REVIEW } from '../support/model-server.mjs';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';
import { agentManifest, attemptFile, claudeManifest, cliAvailable, manifestWith, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from './agents.js';

// Each test runs a real agent CLI twice or three times; OpenCode and Gemini take seconds a run on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const ORIGINAL = 'ORIGINAL-PROMPT-MARKER-51';
const FIRST_ANSWER = FIRST_REVIEW.split('\n')[0]!;
const CONTRACT_FEEDBACK = `${FEEDBACK_HEADING} 1 failed contract`;
const SCHEMA = '{ type: object, required: [verdict, findings], properties: { verdict: { enum: [approve, reject] }, findings: { type: array } } }';

/** One review step whose json_schema contract rejects the scripted first answer once; `extra` adds step keys (indented 4). */
const reviewPipeline = (extra = '') => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: agent
    exec: { type: prompt, source: "Review the change ${ORIGINAL} and answer with JSON." }
    handover:
      contract: { type: json_schema, schema: ${SCHEMA}, on_failure: retry, max_retries: 1 }
${extra}`;

type Body = Record<string, any>;

/** The text parts of the turns of one role (Messages, Responses, Chat Completions, Gemini `contents`), turn by turn. */
function turns(body: Body, roles: string[]): string[][] {
  const list: Body[] = body.messages ?? body.input ?? body.contents ?? [];
  return list
    .filter((m) => roles.includes(m.role))
    .map((m) => {
      const content = m.content ?? m.parts ?? '';
      return typeof content === 'string' ? [content] : (content as Body[]).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
    });
}

/**
 * The newest user text of a request: the last text part of its last user turn. (Claude merges a new message into a
 * user turn that got no answer, as after an HTTP 500, so the turn can hold the stored prompt and then the feedback.)
 */
const lastUserText = (body: Body): string => turns(body, ['user']).at(-1)?.at(-1) ?? '';

/** Everything the model answered earlier in the conversation. */
const assistantText = (body: Body): string => turns(body, ['assistant', 'model']).flat().join('\n');

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** The agent's model requests under scenario tag `tag` (a title request without tools left out), and the first one told what failed. */
function requestsOf(server: ModelServer, tag: string) {
  const requests = server.requests
    .filter((r) => (r as { params?: string[] }).params?.[0] === tag && r.body && Array.isArray(r.body.tools) && r.body.tools.length > 0)
    .map((r) => r.body as Body);
  const told = requests.findIndex((body) => lastUserText(body).includes(FEEDBACK_HEADING));
  return { requests, before: requests.slice(0, Math.max(0, told)), retry: told === -1 ? undefined : requests[told] };
}

/** The run continued attempt 1's session: the retry's first request carries the earlier conversation and, as its new message, only the feedback. */
function expectContinued(run: AgentRun, server: ModelServer, tag: string, feedback = CONTRACT_FEEDBACK): void {
  expect(run.code, run.stderr).toBe(0);
  const { before, retry } = requestsOf(server, tag);
  expect(before.length).toBeGreaterThan(0);
  expect(retry, 'no request carried the feedback').toBeDefined();
  // The earlier conversation: attempt 1's prompt (once: it is not sent again) and, for a contract retry, its answer.
  expect(occurrences(JSON.stringify(retry), ORIGINAL)).toBe(1);
  if (feedback === CONTRACT_FEEDBACK) expect(assistantText(retry!)).toContain(FIRST_ANSWER);
  // The new user message is the feedback alone.
  const message = lastUserText(retry!);
  expect(message).toContain(feedback);
  expect(message).not.toContain(ORIGINAL);
  const attempts = run.record.steps.work!.attempts;
  expect(attempts.map((a) => a.continuedFrom)).toEqual([undefined, 1]);
  expect(attempts[0]!.sessionId).toBeTruthy();
  expect(attempts[1]!.sessionId).toBe(attempts[0]!.sessionId);
  expect(run.events.filter((e) => e.type === 'session_continued')).toMatchObject([{ attempt: 2, from: 1, sessionId: attempts[0]!.sessionId }]);
  expect(run.events.some((e) => e.type === 'session_fresh')).toBe(false);
}

/** The attempt started a fresh session: its first request is the whole prompt plus the feedback, without attempt 1's answer. */
function expectFreshRequest(server: ModelServer, tag: string): void {
  const { retry } = requestsOf(server, tag);
  expect(retry, 'no request carried the feedback').toBeDefined();
  expect(assistantText(retry!)).toBe('');
  const message = lastUserText(retry!);
  expect(message).toContain(ORIGINAL);
  expect(message).toContain(CONTRACT_FEEDBACK);
}

let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server?.close());

/** A run whose retry could not resume: attempt 2 continued attempt 1 and was refused, attempt 3 started fresh and passed. */
function expectRefusedThenFresh(run: AgentRun): AgentRun['record']['steps'][string]['attempts'] {
  expect(run.code, run.stderr).toBe(0);
  const attempts = run.record.steps.work!.attempts;
  expect(attempts.map((a) => [a.attempt, a.continuedFrom, a.failure?.class])).toEqual([
    [1, undefined, 'contract_failed'],
    [2, 1, 'non_zero_exit'],
    [3, undefined, undefined],
  ]);
  return attempts;
}

const base = (tag: string, api = '') => `${server.url}/s/fixonfeedback/${tag}${api}`;

describe.skipIf(!cliAvailable('claude'))('claude: a retry continues the session with --resume', () => {
  it('contract retry: the retry resumes the session and sends only the contract errors', async () => {
    const run = await runAgentPipeline(claudeManifest({ agent: base('claude-contract') }, '  agent: { adapter: agent }'), reviewPipeline());
    expectContinued(run, server, 'claude-contract');
    // The model is served on this machine: Claude's price estimates are no cost (how a resumed attempt is charged only its own is in claude-parse.test.ts).
    expect(run.record.steps.work!.attempts.map((a) => a.costUsd)).toEqual([undefined, undefined]);
    expect(run.record.steps.work!.costUsd).toBeUndefined();
  });

  it('retry policy (HTTP 500, then told): the retry resumes the session and sends only the failure', async () => {
    const run = await runAgentPipeline(
      claudeManifest({ agent: base('claude-policy/http500') }, '  agent: { adapter: agent }'),
      reviewPipeline('    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n'),
    );
    expect(run.record.steps.work!.attempts[0]!.failure?.class).toBe('server_error');
    expectContinued(run, server, 'claude-policy', `${FEEDBACK_HEADING} 1 failed\nFailure class: server_error`);
  });

  it('continue_session: false: the retry starts a fresh session with the whole prompt and the feedback', async () => {
    const run = await runAgentPipeline(claudeManifest({ agent: base('claude-fresh') }, '  agent: { adapter: agent }'), reviewPipeline('    retry: { continue_session: false }\n'));
    expect(run.code, run.stderr).toBe(0);
    expectFreshRequest(server, 'claude-fresh');
    const attempts = run.record.steps.work!.attempts;
    expect(attempts.map((a) => a.continuedFrom)).toEqual([undefined, undefined]);
    expect(attempts[1]!.sessionId).not.toBe(attempts[0]!.sessionId);
    expect(run.events.some((e) => e.type === 'session_continued' || e.type === 'session_fresh')).toBe(false);
  });

  it('a session Claude does not know (it kept none: --no-session-persistence): a fresh attempt with the whole prompt, and the event says why', async () => {
    const manifest = manifestWith(
      [
        `  agent: { type: claude, binary: claude, model: claude-test, isolated: true, base_url: "${base('claude-unknown')}", args: ["--no-session-persistence"], env: { ANTHROPIC_API_KEY: fake-key } }`,
      ],
      '  agent: { adapter: agent }',
    );
    const run = await runAgentPipeline(manifest, reviewPipeline());
    const attempts = expectRefusedThenFresh(run);
    expect(attemptFile(run.project, run.record, 'work', 2, 'stdout')).toContain('No conversation found with session ID');
    const sessionEvents = run.events.filter((e) => e.type === 'session_continued' || e.type === 'session_fresh');
    expect(sessionEvents).toMatchObject([
      { type: 'session_continued', attempt: 2, from: 1 },
      { type: 'session_fresh', attempt: 3, reason: expect.stringContaining(`attempt 2 could not resume session ${attempts[0]!.sessionId}: No conversation found`) },
    ]);
    expectFreshRequest(server, 'claude-unknown');
    expect(run.stdout).toContain('"type":"session_fresh"');
  });
});

describe.skipIf(!cliAvailable('claude') || !backendAvailable('bubblewrap'))('claude in a bubblewrap sandbox: the session lives in the attempt HOME', () => {
  it("a retry resumes the session from a copy of the previous attempt's HOME (adapter not isolated)", async () => {
    const adapter = `  agent: { type: claude, binary: claude, model: claude-test, base_url: "${base('claude-sandbox')}", env: { ANTHROPIC_API_KEY: fake-key } }`;
    const run = await runAgentPipeline(manifestWith([adapter], '  agent: { adapter: agent }', sandboxRuntime('bubblewrap')), reviewPipeline());
    expectContinued(run, server, 'claude-sandbox');
  });
});

describe.skipIf(!cliAvailable('codex'))('codex: a retry continues the thread with `codex exec resume`', () => {
  it('contract retry: the retry resumes the thread, sends only the contract errors, and counts only its own tokens', async () => {
    const run = await runAgentPipeline(agentManifest('codex', 'gpt-5.5')({ agent: base('codex-contract', '/v1') }, '  agent: { adapter: agent }'), reviewPipeline());
    expectContinued(run, server, 'codex-contract');
    // Codex reports the thread's usage so far; the attempt's record is that less attempt 1's.
    const completed = attemptFile(run.project, run.record, 'work', 2, 'stdout')
      .split('\n')
      .map((line) => (line.trim() ? (JSON.parse(line) as Body) : {}))
      .find((event) => event.type === 'turn.completed')!;
    const [first, second] = run.record.steps.work!.attempts;
    expect(second!.tokens.input + second!.tokens.cacheRead + first!.tokens.input + first!.tokens.cacheRead).toBe(completed.usage.input_tokens);
  });

  it('a thread Codex does not know (it kept none: --ephemeral): a fresh attempt with the whole prompt, and the event says why', async () => {
    const manifest = agentManifest('codex', 'gpt-5.5', ', args: ["--ephemeral"]')({ agent: base('codex-unknown', '/v1') }, '  agent: { adapter: agent }');
    const run = await runAgentPipeline(manifest, reviewPipeline());
    const attempts = expectRefusedThenFresh(run);
    expect(run.events.filter((e) => e.type === 'session_fresh')).toMatchObject([
      { attempt: 3, reason: expect.stringContaining(`attempt 2 could not resume session ${attempts[0]!.sessionId}: `) },
    ]);
    expect(run.events.find((e) => e.type === 'session_fresh')!.reason).toMatch(/no rollout found/);
    expectFreshRequest(server, 'codex-unknown');
  });
});

describe.skipIf(!cliAvailable('opencode'))('opencode: a retry continues the session with `opencode run --session`', () => {
  it('contract retry: the retry resumes the session and sends only the contract errors', async () => {
    const adapter = `  agent: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${base('opencode-contract', '/v1')}", api_key_env: OC_KEY, env: { OC_KEY: fake-key } }`;
    const run = await runAgentPipeline(manifestWith([adapter], '  agent: { adapter: agent }'), reviewPipeline());
    expectContinued(run, server, 'opencode-contract');
  });
});

describe.skipIf(!cliAvailable('gemini'))('gemini: a retry continues the session with `gemini --resume <uuid>`', () => {
  it('contract retry: the retry resumes the session and sends only the contract errors', async () => {
    const run = await runAgentPipeline(agentManifest('gemini', 'gemini-2.5-pro')({ agent: base('gemini-contract') }, '  agent: { adapter: agent }'), reviewPipeline());
    expectContinued(run, server, 'gemini-contract');
  });
});

// cursor-agent is not installable offline (see cursor.test.ts): a stand-in replaying its documented stream-json shows
// what Wave hands it on a retry; whether the real binary resumes headless is not tested here.
describe('cursor (stand-in): a retry passes the documented --resume <chat id>', () => {
  it('the contract retry starts cursor-agent with --resume and only the contract errors as its prompt', async () => {
    const standIn = fileURLToPath(new URL('../fixtures/cursor-agent/cursor-agent', import.meta.url));
    const log = join(makeProject({}), 'cursor.ndjson');
    const manifest = manifestWith(
      [`  cursor: { binary: "${standIn}", model: gpt-5, api_key_env: K, env: { K: key-1, CURSOR_STANDIN_SCENARIO: success, CURSOR_STANDIN_LOG: "${log}" } }`],
      '  agent: { adapter: cursor }',
    );
    const run = await runAgentPipeline(manifest, reviewPipeline());
    // The stand-in answers the same prose twice, so the contract fails again: the step fails, as it should.
    expect(run.code).toBe(1);
    const argvs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { argv: string[] }).argv);
    expect(argvs).toHaveLength(2);
    expect(argvs[0]).not.toContain('--resume');
    const resume = argvs[1]!.indexOf('--resume');
    expect(argvs[1]![resume + 1]).toBe('c6b62c6f-7ead-4fd6-9922-e952131177ff');
    expect(argvs[1]!.at(-1)).toMatch(/^## Previous attempt 1 failed contract/);
    expect(argvs[1]!.at(-1)).not.toContain(ORIGINAL);
    expect(run.events.filter((e) => e.type === 'session_continued')).toMatchObject([{ attempt: 2, from: 1, sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff' }]);
  });
});
