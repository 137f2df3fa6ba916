import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_HINTS } from '../../src/adapters/agent-clis.js';
import { GEMINI_GATEWAY_HINT } from '../../src/adapters/login/login-hints.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { cliAvailable, manifestWith, oneStepPipeline, startModelServer, type ModelServer } from './agents.js';

/** Two attempts allowed: a credentials failure must still stop after the first. */
const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';

/** Runs a one-step pipeline on `adapterLine` as a new user would: a home folder with nothing in it, no key passed. */
async function runAsNewUser(adapterLine: string) {
  const home = mkdtempSync(join(tmpdir(), 'wave-empty-home-'));
  const project = makeProject({ 'wave.yaml': manifestWith([adapterLine], '  agent: { adapter: agent }'), 'pipelines/p.yaml': oneStepPipeline('agent', RETRY) });
  const result = await runWave(['run', 'p'], { cwd: project, env: { HOME: home }, timeout: 120_000 });
  const step = latestRun(project).steps.work!;
  return { ...result, step };
}

describe.skipIf(!cliAvailable('claude'))('claude with no key and no login', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('"Not logged in" is auth_failed, not retried, with the hint to log in or set a key; no request leaves', async () => {
    // The base URL keeps anything Claude might send on this machine; it sends nothing without credentials.
    const run = await runAsNewUser(`  agent: { type: claude, binary: claude, model: claude-test, base_url: "${server.url}/s/text" }`);
    expect(run.code).toBe(1);
    expect(run.step.failure).toEqual({ class: 'auth_failed', message: 'Not logged in · Please run /login', hint: LOGIN_HINTS.claude });
    expect(run.step.attempts).toHaveLength(1);
    expect(run.stdout + run.stderr).toContain('auth_failed: Not logged in');
    expect(run.stdout + run.stderr).toContain('hint: Run `claude` and log in with /login');
    expect(server.requests).toEqual([]);
  });
});

describe.skipIf(!cliAvailable('gemini'))('gemini with no key and no login', () => {
  it('"Please set an Auth method" (exit 41, no result) is auth_failed, not retried, with the hint', async () => {
    const run = await runAsNewUser('  agent: { type: gemini, binary: gemini, model: gemini-2.5-pro }');
    expect(run.code).toBe(1);
    expect(run.step.failure).toMatchObject({ class: 'auth_failed', hint: LOGIN_HINTS.gemini });
    expect(run.step.failure?.message).toMatch(/exited with code 41 without a result:[\s\S]*Please set an Auth method/);
    expect(run.step.attempts).toHaveLength(1);
  });

  it('a base URL with no auth type in its settings: "Invalid auth method selected." (exit 41) is auth_failed, with the settings hint', async () => {
    const run = await runAsNewUser('  agent: { type: gemini, binary: gemini, model: gemini-2.5-pro, base_url: "http://127.0.0.1:9" }');
    expect(run.step.failure).toMatchObject({ class: 'auth_failed', message: expect.stringContaining('Invalid auth method selected.'), hint: GEMINI_GATEWAY_HINT });
    expect(run.step.attempts).toHaveLength(1);
  });
});

// Codex and OpenCode refuse nothing on their own without credentials: Codex sends the request unauthenticated and
// OpenCode falls back to its own free models, so the provider's refusal (a 401) is where a missing key shows.
describe('a provider that refuses the credentials', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it.skipIf(!cliAvailable('codex'))('codex: auth_failed with the codex login hint', async () => {
    const run = await runAsNewUser(`  agent: { type: codex, binary: codex, model: gpt-5.5, isolated: true, base_url: "${server.url}/s/http401/v1" }`);
    expect(run.code).toBe(1);
    expect(run.step.failure).toMatchObject({ class: 'auth_failed', message: expect.stringContaining('401'), hint: LOGIN_HINTS.codex });
    expect(run.step.attempts).toHaveLength(1);
  });

  it.skipIf(!cliAvailable('opencode'))('opencode: auth_failed with the opencode login hint', async () => {
    const run = await runAsNewUser(`  agent: { type: opencode, binary: opencode, model: scripted, isolated: true, base_url: "${server.url}/s/http401/v1" }`);
    expect(run.code).toBe(1);
    expect(run.step.failure).toMatchObject({ class: 'auth_failed', hint: LOGIN_HINTS.opencode });
    expect(run.step.attempts).toHaveLength(1);
  });
});
