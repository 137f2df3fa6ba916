import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';
import { manifestWith, oneStepPipeline, runAgentPipeline } from './agents.js';

// plugin-cli is a CLI of the test tree with no built-in adapter; Wave drives it only through its plugin module.
const PLUGIN_MODULE = fileURLToPath(new URL('../fixtures/plugin-cli/adapter.mjs', import.meta.url));

/** A manifest whose adapter `mycli` is the plugin, run in `backend`; PLUGIN_CLI_TOKEN is its login. */
function pluginManifest(backend: TestBackend | 'none'): string {
  return manifestWith([`  mycli: { module: "${PLUGIN_MODULE}", model: scripted-1, env: { PLUGIN_CLI_TOKEN: token-1 } }`], '  dev: { adapter: mycli }', sandboxRuntime(backend));
}

/** One step of persona dev running `prompt`, with `extra` step keys (indented 4). */
const stepPipeline = (prompt: string, extra = ''): string => oneStepPipeline('dev', extra).replace('Do the task.', prompt);

const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';

const BACKENDS: (TestBackend | 'none')[] = ['none', 'bubblewrap', 'docker'];

describe.each(BACKENDS)('plugin adapter: a CLI of our own through its plugin module, sandbox %s', (backend) => {
  const available = backend === 'none' || backendAvailable(backend);

  it.skipIf(!available)('its events and tokens reach the run; a rate-limited attempt is retried and resumes the first attempt session', async () => {
    const run = await runAgentPipeline(pluginManifest(backend), stepPipeline('Write it. WRITE:out.txt FAIL_ONCE:rate_limited', RETRY));
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const finished = run.events.filter((e) => e.type === 'attempt_finished' && e.stepId === 'work');
    expect(finished.map((e) => [e.attempt, e.passed, e.failure?.class])).toEqual([
      [1, false, 'rate_limited'],
      [2, true, undefined],
    ]);
    const sessionId = finished[0]!.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.events.find((e) => e.type === 'session_continued')).toMatchObject({ stepId: 'work', attempt: 2, sessionId, from: 1 });
    // The CLI found the session Wave resumed: the first attempt's prompt is in it.
    expect(finished[1]!.text).toMatch(new RegExp(`^resumed ${sessionId} after 1 earlier prompt\\(s\\)`));
    expect(finished[1]!.tokens).toEqual({ input: 150, output: 30, cacheRead: 0, cacheWrite: 0 });
    expect(finished[1]!.costUsd).toBe(0.002);
    const kinds = run.events.filter((e) => e.type === 'step_event' && e.stepId === 'work').map((e) => e.event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['system', 'usage', 'error', 'tool_use', 'tool_result', 'text', 'result']));
    const toolUse = run.events.find((e) => e.type === 'step_event' && e.event.kind === 'tool_use');
    expect(toolUse?.event).toMatchObject({ name: 'write_file', target: 'out.txt' });
    expect(run.record.steps.work!.status).toBe('completed');
  });

  it.skipIf(!available)("a failure the CLI reports keeps its class and the plugin's hint; auth_failed is not retried", async () => {
    const run = await runAgentPipeline(pluginManifest(backend), stepPipeline('Try. FAIL:auth_failed', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'auth_failed', message: 'scripted failure: auth_failed' });
    expect(run.record.steps.work!.failure?.hint).toContain('Set PLUGIN_CLI_TOKEN');
    expect(run.record.steps.work!.attempts).toHaveLength(1);
  });

  it.skipIf(!available)('a session the CLI no longer knows: the resume is refused by its refusedResume, and the next attempt starts afresh', async () => {
    const run = await runAgentPipeline(pluginManifest(backend), stepPipeline('Try. FAIL_ONCE:rate_limited FORGET', RETRY));
    expect(run.code).toBe(1);
    const finished = run.events.filter((e) => e.type === 'attempt_finished');
    expect(finished.map((e) => e.failure?.message)).toEqual(['scripted failure: rate_limited', `unknown session ${finished[0]!.sessionId}`, 'scripted failure: rate_limited']);
    const fresh = run.events.find((e) => e.type === 'session_fresh');
    expect(fresh).toMatchObject({ attempt: 3, reason: `attempt 2 could not resume session ${finished[0]!.sessionId}: unknown session ${finished[0]!.sessionId}` });
  });

  it.skipIf(!available)('a thread step gets the earlier round of its thread in its prompt', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: plan, persona: dev, thread: impl, exec: { type: prompt, source: "PLAN-MARKER-51 use a cache" } }
  - { id: build, persona: dev, dependencies: [plan], thread: impl, exec: { type: prompt, source: "ECHO-PROMPT build it" } }
`;
    const run = await runAgentPipeline(pluginManifest(backend), pipeline);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const answer = run.events.filter((e) => e.type === 'attempt_finished' && e.stepId === 'build').at(-1)!.text as string;
    expect(answer).toContain('plugin-cli answered: PLAN-MARKER-51 use a cache');
    expect(answer).toContain('ECHO-PROMPT build it');
  });
});

describe('plugin adapter: a plugin without resumeArgs', () => {
  it('reports no session, so a retry starts afresh with the whole prompt', async () => {
    const define = fileURLToPath(new URL('../../dist/bundle/adapter.js', import.meta.url));
    const module = `import plugin from ${JSON.stringify(PLUGIN_MODULE)};
import { defineAdapter } from ${JSON.stringify(define)};
const { resumeArgs: _left, ...rest } = plugin;
export default defineAdapter(rest);
`;
    const manifest = pluginManifest('none').replace(PLUGIN_MODULE, './no-resume.mjs');
    const run = await runAgentPipeline(manifest, stepPipeline('Try. FAIL_ONCE:rate_limited', RETRY), { 'no-resume.mjs': module });
    expect(run.code).toBe(1);
    const finished = run.events.filter((e) => e.type === 'attempt_finished');
    expect(finished.map((e) => [e.failure?.class, e.sessionId])).toEqual([
      ['rate_limited', undefined],
      ['rate_limited', undefined],
    ]);
    expect(run.events.some((e) => e.type === 'session_continued')).toBe(false);
  });
});

describe('plugin adapter: wave doctor', () => {
  it('lists the plugin like a built-in: its binary and version, and its own login check', async () => {
    const project = makeProject({ 'wave.yaml': pluginManifest('none') });
    const result = await runWave(['doctor', '--json'], { cwd: project });
    const mycli = (JSON.parse(result.stdout) as { adapters: Array<Record<string, any>> }).adapters.find((a) => a.adapter === 'mycli');
    expect(mycli).toMatchObject({ type: 'plugin', version: 'plugin-cli 1.0.0', login: { state: 'ok', detail: 'PLUGIN_CLI_TOKEN is set' }, model: 'scripted-1', usable: true });
    expect(mycli!.path).toBe(fileURLToPath(new URL('../fixtures/plugin-cli/plugin-cli.mjs', import.meta.url)));
    const text = await runWave(['doctor'], { cwd: project });
    expect(text.stdout).toContain('ok   mycli (plugin)\n  binary: ');
  });

  it('a plugin whose login check finds no token fails with its hint', async () => {
    const manifest = manifestWith([`  mycli: { module: "${PLUGIN_MODULE}" }`], '  dev: { adapter: mycli }', sandboxRuntime('none'));
    const result = await runWave(['doctor'], { cwd: makeProject({ 'wave.yaml': manifest }), env: { PLUGIN_CLI_TOKEN: '' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL mycli (plugin)');
    expect(result.stdout).toContain('not logged in: PLUGIN_CLI_TOKEN is not set');
    expect(result.stdout).toContain("hint: Set PLUGIN_CLI_TOKEN in the adapter's env");
  });
});
