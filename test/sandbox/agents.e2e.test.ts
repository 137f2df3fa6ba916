import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentManifest, attemptFile, claudeManifest, cliAvailable, param, runAgentPipeline, startModelServer, type AgentRun, type ModelServer } from '../e2e/agents.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';

// Real agent CLIs, each run by `wave run` inside a sandbox with no network, against the scripted model server on
// loopback: the adapter's base_url is forwarded inside at the same URL. OpenCode starts slowly (~3 s a run) and a
// docker container adds its own start: runs take up to a minute or more on a loaded machine.
vi.setConfig({ testTimeout: 300_000 });

type Cli = 'claude' | 'opencode' | 'codex' | 'gemini';

/** Per CLI: how its manifest is built and the path its API lives under on the scripted server. */
const CLIS: Record<Cli, { manifest: ReturnType<typeof agentManifest>; apiSuffix: string }> = {
  claude: { manifest: claudeManifest, apiSuffix: '' },
  // Inside the sandbox Wave allows OpenCode's external_directory (headless, its "ask" is a refusal): what stops the
  // probe is the sandbox, not OpenCode.
  opencode: { manifest: agentManifest('opencode', 'scripted', ', api_key_env: OC_KEY, env: { OC_KEY: fake-key }'), apiSuffix: '/v1' },
  codex: { manifest: agentManifest('codex', 'gpt-5.5'), apiSuffix: '/v1' },
  gemini: { manifest: agentManifest('gemini', 'gemini-2.5-pro'), apiSuffix: '' },
};

const planted: string[] = [];
afterAll(() => planted.forEach((file) => rmSync(file, { force: true })));

/** The write step, then a step whose shell tool prints two planted files and $HOME. */
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: write
    persona: writer
    exec: { type: prompt, source: "Write notes.txt." }
  - id: probe
    persona: prober
    dependencies: [write]
    exec: { type: prompt, source: "Run the command." }
`;

/** A short summary of a failed run for assertion messages: wave's output and each attempt's stderr. */
function diagnose(run: AgentRun): string {
  const parts = [`wave exit ${run.code}`, run.stderr.slice(-2000)];
  for (const [id, step] of Object.entries(run.record.steps)) {
    parts.push(`step ${id}: ${step.status} ${JSON.stringify(step.failure ?? {})}`);
    for (const name of ['stderr', 'stdout']) {
      try {
        parts.push(`--- ${id} ${name}\n${attemptFile(run.project, run.record, id, 1, name).slice(-2000)}`);
      } catch {
        // No such file: the attempt never started.
      }
    }
  }
  return parts.join('\n');
}

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: real agent CLIs', (backend) => {
  describe.skipIf(!backendAvailable(backend))(`${backend}`, () => {
    let server: ModelServer;
    beforeAll(async () => (server = await startModelServer()));
    afterAll(() => server?.close());

    describe.each(Object.keys(CLIS) as Cli[])('%s', (cli) => {
      it.skipIf(!cliAvailable(cli))(
        `${cli} writes a file with its own tool inside ${backend} through the forwarded model endpoint; its shell sees neither the host's HOME nor its /tmp`,
        async () => {
          const { manifest, apiSuffix } = CLIS[cli];
          const content = `written by ${cli} inside ${backend}\n`;
          const secret = `planted-${randomBytes(8).toString('hex')}`;
          const homeFile = join(homedir(), `wave-planted-${randomBytes(4).toString('hex')}.txt`);
          const tmpFile = join(tmpdir(), `wave-planted-${randomBytes(4).toString('hex')}.txt`);
          for (const file of [homeFile, tmpFile]) writeFileSync(file, secret);
          planted.push(homeFile, tmpFile);
          const command = `cat ${homeFile} 2>&1; cat ${tmpFile} 2>&1; echo "home=$HOME"`;
          const adapters = {
            writer: `${server.url}/s/write/notes.txt/${param(content)}${apiSuffix}`,
            prober: `${server.url}/s/shell/${param(command)}${apiSuffix}`,
          };
          const personas = '  writer: { adapter: writer }\n  prober: { adapter: prober }';
          const run = await runAgentPipeline(manifest(adapters, personas, sandboxRuntime(backend)), PIPELINE, {}, ['--keep-workspaces']);
          expect(run.code, diagnose(run)).toBe(0);

          // The file exists in the workspace on the host because the CLI executed its own write tool, and it is the user's.
          const write = run.record.steps.write!;
          expect(write.status).toBe('completed');
          const written = join(write.workspace!, 'notes.txt');
          expect(readFileSync(written, 'utf8')).toBe(content);
          expect(statSync(written).uid).toBe(process.getuid!());

          // The model was reached through the sandbox: the forwarded endpoint of the server's port, allowed.
          const port = Number(new URL(server.url).port);
          const egress = run.events.filter((e) => e.type === 'egress' && e.stepId === 'write');
          expect(egress, JSON.stringify(egress)).toContainEqual(expect.objectContaining({ via: 'endpoint', allowed: true, port }));
          // Nothing bound for the model was refused (OpenCode also tries registry.npmjs.org and github.com: denied, harmless).
          expect(egress.filter((e) => e.allowed === false && e.port === port)).toEqual([]);

          // The shell tool's result, in the CLI's own stdout: neither planted file was readable, and HOME is the attempt's.
          const probeStep = run.record.steps.probe!;
          expect(probeStep.status).toBe('completed');
          const stdout = attemptFile(run.project, run.record, 'probe', 1, 'stdout');
          const attemptHome = join(run.project, '.wave', 'runs', run.record.id, 'steps', 'probe', 'attempt-1', 'home');
          expect(stdout).toContain(`home=${attemptHome}`);
          expect(stdout).toContain(`${homeFile}: No such file or directory`);
          expect(stdout).toContain(`${tmpFile}: No such file or directory`);
          expect(stdout).not.toContain(secret);
          expect(run.events.some((e) => e.type === 'egress' && e.stepId === 'probe' && e.via === 'endpoint' && e.port === port)).toBe(true);
        },
      );
    });
  });
});
