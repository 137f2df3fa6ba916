import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { cliAvailable } from './agents.js';

const available = cliAvailable('claude');

describe.skipIf(!available)('wave doctor', () => {
  it('reports binary, version, access mode and model for each adapter; exit 1 when one is unusable', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: d }
adapters:
  local: { type: claude, binary: claude, model: claude-test, base_url: "http://127.0.0.1:9/s/text", env: { ANTHROPIC_API_KEY: fake-key } }
  keyed: { type: claude, binary: claude, api_key_env: MY_CLAUDE_KEY }
  unpassed: { type: claude, binary: claude, isolated: true }
  missing: { type: codex, binary: codex-not-installed-here, base_url: "http://127.0.0.1:9/v1" }
  shell: { type: process, binary: sh }
runtime: { sandbox: { env_passthrough: [MY_CLAUDE_KEY] } }
`,
    });
    const result = await runWave(['doctor', '--json'], { cwd: project, env: { MY_CLAUDE_KEY: 'k', ANTHROPIC_API_KEY: 'not-passed' } });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { adapters: Array<Record<string, any>>; sandboxes: Array<Record<string, any>> };
    const checks = Object.fromEntries(report.adapters.map((c) => [c.adapter, c]));
    expect(report.sandboxes.map((s) => s.backend)).toEqual(['none', 'bubblewrap', 'docker']);
    expect(report.sandboxes[0]).toMatchObject({ backend: 'none', configured: true, usable: true });
    expect(checks.local).toMatchObject({ usable: true, model: 'claude-test', access: { mode: 'local', detail: 'http://127.0.0.1:9/s/text' } });
    expect(checks.local.path).toMatch(/claude$/);
    expect(checks.local.version).toContain('Claude Code');
    expect(checks.keyed).toMatchObject({ usable: true, access: { mode: 'api_key', detail: 'MY_CLAUDE_KEY' } });
    expect(checks.unpassed).toMatchObject({ usable: false, access: { mode: 'none' } });
    expect(checks.unpassed.access.detail).toContain('ANTHROPIC_API_KEY is set but not listed in runtime.sandbox.env_passthrough');
    expect(checks.missing.usable).toBe(false);
    expect(checks.missing.problems[0]).toContain('codex-not-installed-here');
    expect(checks.shell).toMatchObject({ usable: true, access: { mode: 'not_needed' } });

    const text = await runWave(['doctor'], { cwd: project, env: { MY_CLAUDE_KEY: 'k' } });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ok {3}local \(claude\)/m);
    expect(text.stdout).toMatch(/^FAIL missing \(codex\)/m);
    expect(text.stdout).toMatch(/^ok {3}sandbox none \(configured\)/m);
  });

  it('reports a configured sandbox backend that cannot run as a failure, with its hint', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: d }
adapters:
  local: { type: claude, binary: claude, base_url: "http://127.0.0.1:9/s/text" }
runtime: { sandbox: { backend: docker } }
`,
    });
    const result = await runWave(['doctor'], { cwd: project, env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL sandbox docker \(configured\)\n {2}problem: the Docker daemon is not answering/m);
    expect(result.stdout).toContain('hint: Start the Docker daemon (dockerd) or set DOCKER_HOST');
    const json = JSON.parse((await runWave(['doctor', '--json'], { cwd: project, env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } })).stdout);
    expect(json.sandboxes[0]).toMatchObject({ backend: 'docker', configured: true, usable: false });
  });

  it('exit 0 when every adapter is usable', async () => {
    const project = makeProject({
      'wave.yaml': `kind: WaveManifest
metadata: { name: d }
adapters:
  local: { type: claude, binary: claude, base_url: "http://127.0.0.1:9/s/text", env: { ANTHROPIC_API_KEY: fake-key } }
`,
    });
    const result = await runWave(['doctor'], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
