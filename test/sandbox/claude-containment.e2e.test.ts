import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claudeManifest, cliAvailable, param, runAgentPipeline, startModelServer, type ModelServer } from '../e2e/agents.js';
import { WAVE_BIN } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, marker, processesWith, sandboxRuntime } from '../support/sandbox.js';
import { waitFor } from '../support/wait.js';

// Claude Code's own Bash tool, driven by the scripted model server, tries what a prompt-injected agent would:
// write outside its workspace, leave daemons behind, reach a host off its allowlist.
vi.setConfig({ testTimeout: 120_000 });

const escapes: string[] = [];
afterAll(() => escapes.forEach((file) => rmSync(file, { force: true })));

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: agent
    persona: agent
    exec: { type: prompt, source: "Run the command." }
`;

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: a real Claude Code step', (backend) => {
  describe.skipIf(!backendAvailable(backend) || !cliAvailable('claude'))(backend, () => {
    let server: ModelServer;
    beforeAll(async () => (server = await startModelServer()));
    afterAll(() => server?.close());

    /** A manifest whose claude persona's Bash tool runs `command`, inside the backend, with `runtime` sandbox lines. */
    const manifest = (command: string, sandboxExtra = '') =>
      claudeManifest({ agent: `${server.url}/s/shell/${param(command)}` }, '  agent: { adapter: agent }', sandboxRuntime(backend, sandboxExtra));

    it('writes outside the workspace leave nothing, its daemons end with the step, a denied host is refused', async () => {
      const outside = [join(tmpdir(), `wave-claude-escape-${randomBytes(4).toString('hex')}`), join(homedir(), `wave-claude-escape-${randomBytes(4).toString('hex')}`)];
      escapes.push(...outside);
      const [daemon, forked] = [marker(), marker()];
      const command = [
        ...outside.map((file) => `echo escaped > ${file}`),
        `setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null &`,
        `(sleep ${forked} > /dev/null 2>&1 < /dev/null &)`,
        'curl -s -m 10 http://denied.example/ ; echo',
      ].join('\n');
      const run = await runAgentPipeline(manifest(command), PIPELINE);
      expect(run.code, run.stderr).toBe(0);
      for (const file of outside) expect(existsSync(file)).toBe(false);
      expect(processesWith(`sleep ${daemon}`)).toEqual([]);
      expect(processesWith(`sleep ${forked}`)).toEqual([]);
      expect(run.events).toContainEqual(expect.objectContaining({ type: 'egress', stepId: 'agent', host: 'denied.example', port: 80, allowed: false }));
      expect(run.record.steps.agent!.egressDenied).toBe(1);
    });

    it('ends its daemons when the step times out', async () => {
      const daemon = marker();
      const command = `setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null & sleep 120`;
      const pipeline = `${PIPELINE}    timeout_minutes: 0.1\n`;
      const run = await runAgentPipeline(manifest(command), pipeline);
      expect(run.record.steps.agent!.failure?.class).toBe('timeout');
      // The Bash tool did start the daemon before the time ran out.
      expect(run.events).toContainEqual(expect.objectContaining({ type: 'step_event', event: expect.objectContaining({ kind: 'tool_use', name: 'Bash' }) }));
      expect(processesWith(`sleep ${daemon}`)).toEqual([]);
    });

    it('ends its daemons when the run is cancelled', async () => {
      const daemon = marker();
      const project = makeProject({ 'wave.yaml': manifest(`setsid sleep ${daemon} > /dev/null 2>&1 < /dev/null & sleep 120`), 'pipelines/p.yaml': PIPELINE });
      const wave = execa(process.execPath, [WAVE_BIN, 'run', 'p', '--output', 'quiet'], { cwd: project, reject: false });
      await waitFor(() => processesWith(`sleep ${daemon}`).length > 0, 'Claude to start the daemon', 60_000);
      wave.kill('SIGINT');
      expect((await wave).exitCode).toBe(130);
      expect(latestRun(project).steps.agent!.status).toBe('cancelled');
      expect(processesWith(`sleep ${daemon}`)).toEqual([]);
    });
  });
});
