import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FLOODER } from '../support/attacks.mjs';
import { WAVE_BIN } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestEvents, latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';

/** A step command that opens `count` connections to the egress proxy from inside the sandbox and holds them. */
const floodCommand = (count: number, holdMs = 500): string => `node -e "$(echo ${Buffer.from(FLOODER).toString('base64')} | base64 -d)" ${count} ${holdMs}`;

/** Runs `wave ...args` with at most `files` open descriptors (soft and hard limit); never throws on a non-zero exit. */
async function underFileLimit(files: number, args: string[], options: { cwd: string; env: Record<string, string> }) {
  const result = await execa('prlimit', [`--nofile=${files}:${files}`, '--', process.execPath, WAVE_BIN, ...args], {
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
    ...options,
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const runDir = (project: string): string => join(project, '.wave', 'runs', latestRun(project).id);

function manifest(backend: TestBackend, limits = ''): string {
  return `kind: WaveManifest
metadata: { name: flood }
runtime:
  max_concurrency: 2
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend, limits)}`;
}

describe.each(['bubblewrap', 'docker'] as const)('%s sandbox: a connection flood', (backend) => {
  describe.skipIf(!backendAvailable(backend))(`${backend}`, () => {
    it('20,000 connections to the egress proxy are refused past the cap while Wave lives, records the run, and runs the parallel step', async () => {
      const project = makeProject({
        // runtime.sandbox.limits.connections below its default of 256, so the refusals show the key read.
        'wave.yaml': manifest(backend, '    limits: { connections: 100 }\n'),
        'pipelines/p.yaml': commandPipeline('p', [
          ['flood', [], floodCommand(20_000)],
          ['steady', [], 'sleep 3; echo steady'],
        ]),
      });
      // Wave's own temp folder, so what its attempts leave there is seen.
      const temp = mkdtempSync(join(tmpdir(), 'wave-flood-tmp-'));
      // Wave held to 4,096 descriptors (Node raises its soft limit to the hard one): the flood is five times that.
      const run = await underFileLimit(4096, ['run', 'p', '--output', 'text'], { cwd: project, env: { TMPDIR: temp } });
      const all = `${run.stdout}\n${run.stderr}`;
      expect(run.code, all).toBe(0);
      expect(all).not.toMatch(/\n\s+at .+:\d+:\d+|EMFILE|internal/);
      const record = latestRun(project);
      expect(record.status).toBe('completed');
      expect(record.steps.steady!.status).toBe('completed');
      const refusals = latestEvents(project).filter((e) => e.type === 'egress' && !e.allowed && e.stepId === 'flood');
      expect(refusals.length).toBeGreaterThan(0);
      // Rate-limited: a handful of events for 20,000 refusals, each naming the key that raises the cap.
      expect(refusals.length).toBeLessThan(100);
      for (const event of refusals)
        expect(event).toMatchObject({
          host: '*',
          port: 0,
          reason: expect.stringContaining('holds 100 connections to the egress proxy, its limit (runtime.sandbox.limits.connections)'),
        });
      expect(record.steps.flood!.egressDenied).toBe(refusals.length);
      // The step held at most the cap: the proxy closed every other connection it opened.
      const [, opened, closed] = /flood: opened (\d+), closed by the proxy (\d+)/.exec(readFileSync(join(runDir(project), 'steps', 'flood', 'attempt-1', 'stdout'), 'utf8')) ?? [];
      expect(Number(opened) - Number(closed)).toBeLessThanOrEqual(100);
      expect(Number(closed)).toBeGreaterThan(0);
      expect(readdirSync(temp).filter((name) => name.startsWith('wave-sbx-'))).toEqual([]);
    });

    it("a flood that exhausts Wave's own descriptors anyway ends the run failed and recorded, with no stack trace, and resume finishes it", async () => {
      const project = makeProject({
        // A cap above Wave's descriptor limit: the limit, not the cap, is what the flood meets.
        'wave.yaml': manifest(backend, '    limits: { connections: 5000 }\n'),
        'pipelines/p.yaml': commandPipeline('p', [
          ['flood', [], floodCommand(20_000, 4000)],
          ['steady', [], 'sleep 1'],
          ['after', ['steady'], 'echo after'],
        ]),
      });
      const run = await underFileLimit(1024, ['run', 'p', '--output', 'text'], { cwd: project, env: {} });
      const all = `${run.stdout}\n${run.stderr}`;
      expect(run.code, all).toBe(1);
      expect(all).not.toMatch(/\n\s+at .+:\d+:\d+|internal/);
      const record = latestRun(project);
      expect(record.status).toBe('failed');
      // Whatever met the limit first (a step's start, its sandbox, a write to the run folder) failed saying so.
      const failures = Object.values(record.steps).flatMap((step) => (step.failure ? [step.failure] : []));
      expect(
        failures.find((failure) => failure.message.includes('too many open files (EMFILE)')),
        JSON.stringify(failures),
      ).toBeDefined();
      expect(all).toContain('ulimit -n');
      const resumed = await underFileLimit(20_000, ['resume', record.id, '--output', 'text'], { cwd: project, env: {} });
      expect(resumed.code, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
      expect(latestRun(project).status).toBe('completed');
    });
  });
});
