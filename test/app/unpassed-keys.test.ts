import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import { unpassedKeyWarnings } from '../../src/app/unpassed-keys.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { EventBus } from '../../src/events.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner } from '../support/mock-runner.js';

const manifest = (extra = '', adapter = '{ binary: claude }') => `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: ${adapter}
personas:
  agent: { adapter: claude }
${extra}`;
const PIPELINE = 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - { id: a, persona: agent, exec: { source: "hi" } }\n';
const KEY = 'sk-ant-test-key-0123456789';

/** A HOME with nothing in it, or with a Claude Code login. */
function home(loggedIn = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'wave-home-'));
  if (loggedIn) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', '.credentials.json'), '{}');
  }
  return dir;
}

describe('an API key set where Wave runs but passed to no step', () => {
  it('is warned of before the run, naming the variable, the adapter and the fix', async () => {
    const { plan } = await plannedRun(PIPELINE, { manifest: manifest() });
    expect(unpassedKeyWarnings(plan, { HOME: home(), ANTHROPIC_API_KEY: KEY })).toEqual([
      'warning: ANTHROPIC_API_KEY is set here but steps on adapter `claude` will not see it: list it in runtime.sandbox.env_passthrough to use it\n',
    ]);
    // The key itself is never printed.
    expect(unpassedKeyWarnings(plan, { HOME: home(), ANTHROPIC_API_KEY: KEY }).join('')).not.toContain(KEY);
  });

  it('says which login the steps use instead when the CLI is logged in', async () => {
    const { plan } = await plannedRun(PIPELINE, { manifest: manifest() });
    const [warning] = unpassedKeyWarnings(plan, { HOME: home(true), ANTHROPIC_API_KEY: KEY });
    expect(warning).toMatch(/will not see it; they use your claude login \(.*\.claude\/\.credentials\.json\) instead: list it/);
  });

  it('is quiet when the key is passed, set on the adapter, unset, or the adapter has a base_url', async () => {
    const env = { HOME: home(), ANTHROPIC_API_KEY: KEY };
    const passed = await plannedRun(PIPELINE, { manifest: manifest('runtime: { sandbox: { env_passthrough: [ANTHROPIC_API_KEY] } }\n') });
    expect(unpassedKeyWarnings(passed.plan, env)).toEqual([]);
    const own = await plannedRun(PIPELINE, { manifest: manifest('', '{ binary: claude, env: { ANTHROPIC_API_KEY: "from-the-manifest-1234" } }') });
    expect(unpassedKeyWarnings(own.plan, env)).toEqual([]);
    const local = await plannedRun(PIPELINE, { manifest: manifest('', '{ binary: claude, base_url: "http://127.0.0.1:9" }') });
    expect(unpassedKeyWarnings(local.plan, env)).toEqual([]);
    expect(unpassedKeyWarnings(passed.plan, { HOME: home() })).toEqual([]);
  });

  it("covers a plugin adapter's key variables, as its definition names them", async () => {
    const plugin = fileURLToPath(new URL('../fixtures/plugin-cli/adapter.mjs', import.meta.url));
    const { plan } = await plannedRun(PIPELINE, { manifest: manifest('', `{ module: ${JSON.stringify(plugin)} }`) });
    expect(unpassedKeyWarnings(plan, { HOME: home(), PLUGIN_CLI_TOKEN: 'token-0123456789' })).toEqual([
      'warning: PLUGIN_CLI_TOKEN is set here but steps on adapter `claude` will not see it: list it in runtime.sandbox.env_passthrough to use it\n',
    ]);
  });
});

describe("an agent CLI's base-URL variables", () => {
  it('reach its steps from the environment without env_passthrough; its key does not', async () => {
    const { plan, store } = await plannedRun(PIPELINE, { manifest: manifest() });
    const runner = new MockRunner(() => ({}), 'claude');
    const parentEnv = { ...process.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:8123', ANTHROPIC_API_KEY: KEY };
    const context = { plan, store, bus: new EventBus(), registry: new AdapterRegistry().register(runner), parentEnv };
    expect(await executeRun(context, { onFailure: 'halt', signal: new AbortController().signal })).toBe('completed');
    expect(runner.calls[0]!.env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:8123');
    expect(runner.calls[0]!.env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });
});
