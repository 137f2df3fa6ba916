import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attemptFile, cliAvailable, manifestWith, param, runEvents, startModelServer, type ModelServer } from '../e2e/agents.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';

// A user logged in to Claude Code (no API key) runs a sandboxed persona: the real CLI inside each sandbox finds the
// login's credentials file in its HOME and uses it, and sees nothing else of the user's HOME. This file's HOME is its
// own (test/support/isolated-home.ts), so the login planted in it is no one's.
vi.setConfig({ testTimeout: 300_000 });

const token = `sk-ant-oat01-${randomBytes(12).toString('hex')}`;
const credentials = join(homedir(), '.claude', '.credentials.json');
const sshKey = join(homedir(), '.ssh', 'id_ed25519');
const userSettings = join(homedir(), '.claude', 'settings.json');
const secret = `planted-${randomBytes(8).toString('hex')}`;

/** The step's shell: what its HOME holds, the planted files by their host paths, and one byte appended to the login as a token refresh writes it. */
const PROBE = [
  'echo "home: $(ls -A "$HOME" | tr "\\n" " ")"',
  'echo "claude: $(ls -A "$HOME/.claude" | tr "\\n" " ")"',
  `cat ${sshKey} ${userSettings} 2>&1`,
  `printf ' ' >> "$HOME/.claude/.credentials.json" && echo refreshed`,
  'curl -s -o /dev/null --max-time 5 https://platform.claude.com/v1/oauth/token https://example.org/',
].join('; ');

/** The text of the first tool result in Claude's stream: what the step's shell printed. */
function toolResult(stream: string): string {
  for (const line of stream.split('\n').filter(Boolean)) {
    const event = JSON.parse(line) as { type?: string; message?: { content?: Array<{ type?: string; content?: unknown }> } };
    const result = event.type === 'user' ? event.message?.content?.find((part) => part.type === 'tool_result') : undefined;
    if (result) return String(result.content);
  }
  throw new Error(`no tool result in:\n${stream}`);
}

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: probe
    persona: prober
    exec: { type: prompt, source: "Run the command." }
`;

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: a CLI login', (backend) => {
  describe.skipIf(!backendAvailable(backend) || !cliAvailable('claude'))(backend, () => {
    let server: ModelServer;
    beforeAll(async () => {
      server = await startModelServer();
      mkdirSync(join(homedir(), '.claude'), { recursive: true });
      mkdirSync(join(homedir(), '.ssh'), { recursive: true });
      writeFileSync(sshKey, secret);
      writeFileSync(userSettings, JSON.stringify({ env: { PLANTED: secret } }));
    });
    afterAll(() => server?.close());

    /** Plants the login, then runs the probe on a claude adapter of the given keys; the endpoint comes from Wave's environment. */
    async function runLoggedIn(adapterKeys: string) {
      const claudeAiOauth = { accessToken: token, refreshToken: 'sk-ant-ort01-x', expiresAt: Date.now() + 3_600_000, scopes: ['user:inference'] };
      writeFileSync(credentials, JSON.stringify({ claudeAiOauth }), { mode: 0o600 });
      const manifest = manifestWith([`  agent: { type: claude, model: claude-test${adapterKeys} }`], '  prober: { adapter: agent }', sandboxRuntime(backend));
      const project = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': PIPELINE });
      const before = server.requests.length;
      const env = { ANTHROPIC_BASE_URL: `${server.url}/s/shell/${param(PROBE)}`, ANTHROPIC_API_KEY: '' };
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project, timeout: 280_000, env });
      return { ...run, project, record: latestRun(project), requests: server.requests.slice(before) };
    }

    it('reaches the step as its one credentials file: the CLI authenticates with it, writes back to it, and nothing else of HOME is there', async () => {
      // No base_url and no key: the adapter's access is the login.
      const run = await runLoggedIn('');
      const { project, record } = run;
      expect(run.code, run.stderr + run.stdout).toBe(0);

      // Every model request carried the login's token.
      const requests = run.requests.filter((request) => request.path?.endsWith('/v1/messages'));
      expect(requests.length).toBeGreaterThan(0);
      for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${token}`);

      // The step's HOME held Claude's own files and the login, not the user's settings or keys.
      const stdout = toolResult(attemptFile(project, record, 'probe', 1, 'stdout'));
      expect(stdout).toMatch(/claude: [^\n]*\.credentials\.json/);
      expect(stdout).not.toMatch(/home: [^\n]*\.ssh/);
      expect(stdout).toContain(`${sshKey}: No such file or directory`);
      expect(stdout).toContain(`${userSettings}: No such file or directory`);
      expect(stdout).not.toContain(secret);
      expect(stdout).toContain('refreshed');
      // The write landed in the user's file, and no copy of it stayed in the run folder.
      expect(readFileSync(credentials, 'utf8').endsWith(' ')).toBe(true);
      expect(existsSync(join(project, '.wave', 'runs', record.id, 'steps', 'probe', 'attempt-1', 'home', '.claude', '.credentials.json'))).toBe(false);
      // The model was reached through the forwarded endpoint; nothing of the token is in the record.
      expect(readFileSync(join(project, '.wave', 'runs', record.id, 'events.ndjson'), 'utf8')).not.toContain(token);
      const egress = runEvents(project, record).filter((event) => event.type === 'egress');
      expect(egress.some((event) => event.via === 'endpoint' && event.allowed)).toBe(true);
      // The login's token refresh host passes the allowlist (offline, it may then not resolve); any other host does not.
      const decision = (host: string) => egress.find((event) => event.host === host);
      expect(decision('platform.claude.com'), JSON.stringify(egress)).toBeDefined();
      expect(decision('platform.claude.com')!.reason).not.toBe('no entry matches it');
      expect(decision('example.org')).toMatchObject({ allowed: false, reason: 'no entry matches it' });
    });

    it('stays out of an isolated adapter, which then says how to give it access', async () => {
      const run = await runLoggedIn(', isolated: true');
      expect(run.code).not.toBe(0);
      expect(run.record.steps.probe!.failure).toMatchObject({ class: 'auth_failed', hint: expect.stringContaining('isolated: true keeps the CLI from your own login') });
      expect(run.stderr + run.stdout).toContain('only an API key or a base_url reaches the model');
      expect(run.requests.some((request) => request.headers.authorization === `Bearer ${token}`)).toBe(false);
    });
  });
});
