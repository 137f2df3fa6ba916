import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';

function manifest(backend: TestBackend | 'none'): string {
  return `kind: WaveManifest
metadata: { name: scripts }
project:
  contract_test_command: "test -s .agents/output/result.txt && grep -q project-file project-file.txt"
runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend)}`;
}

// Wave's form as its shipped pipelines write it: `type: command`, a `script`, the project mounted at /project.
const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: trace
    type: command
    workspace:
      mount:
        - source: ./
          target: /project
    script: |
      mkdir -p .agents/output
      pwd > .agents/output/where.txt
      printf '%s' {{ input }} | wc -c > .agents/output/result.txt
      printf '%s' {{ input }} | head -c 20 > .agents/output/head.txt
    output_artifacts:
      - name: result
        path: .agents/output/result.txt
    outcomes:
      - { type: file, extract_from: .agents/output/where.txt, label: where }
    handover:
      contracts:
        - type: non_empty_file
          source: .agents/output/where.txt
        - type: test_suite
          command: "{{ project.contract_test_command }}"
  - id: flaky
    dependencies: [trace]
    script: "test -f tried || { touch tried; exit 3; }; echo second attempt"
    retry: { max_attempts: 2, base_delay: 0s }
`;

/** 40 KiB of input, past what the environment takes: it reaches the script through a file, read from the mount's folder. */
const INPUT = `$(touch PWNED) \`touch PWNED\` ${'x'.repeat(40 * 1024)}`;

describe.each(['none', 'bubblewrap', 'docker'] as const)('a Wave command step (`script:`) with sandbox backend %s', (backend) => {
  describe.skipIf(backend !== 'none' && !backendAvailable(backend))(`${backend}`, () => {
    it("runs in the copy of the ./ mount, where its artifacts, outcomes and contracts are read; values stay values; retries follow the step's policy", async () => {
      const project = makeProject({ 'wave.yaml': manifest(backend), 'pipelines/p.yaml': PIPELINE, 'project-file.txt': 'project-file\n' });
      const run = await runWave(['run', 'p', '--input', INPUT, '--output', 'text', '--keep-workspaces'], { cwd: project });
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const record = latestRun(project);
      const workdir = join(record.steps.trace!.workspace!, 'project');
      expect(readFileSync(join(workdir, '.agents', 'output', 'where.txt'), 'utf8').trim()).toBe(workdir);
      expect(readFileSync(join(workdir, '.agents', 'output', 'head.txt'), 'utf8')).toBe('$(touch PWNED) `touc');
      const saved = join(project, '.wave', 'runs', record.id, record.steps.trace!.artifacts[0]!.path);
      expect(readFileSync(saved, 'utf8').trim()).toBe(String(Buffer.byteLength(INPUT)));
      expect(record.steps.trace!.contracts.map((c) => c.passed)).toEqual([true, true]);
      expect(record.steps.trace!.outcomes).toEqual([expect.objectContaining({ label: 'where', value: join(workdir, '.agents', 'output', 'where.txt') })]);
      for (const dir of [project, record.steps.trace!.workspace!, workdir]) expect(existsSync(join(dir, 'PWNED'))).toBe(false);
      expect(record.steps.flaky!.status).toBe('completed');
      expect(record.steps.flaky!.attempts.map((a) => a.exitCode)).toEqual([3, 0]);
    });
  });
});

describe('a Wave command step on the host', () => {
  it('is stopped at its timeout_minutes (Wave applies none to a command step)', async () => {
    const pipeline = 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: slow\n    type: command\n    timeout_minutes: 0.02\n    script: sleep 30\n';
    const project = makeProject({ 'wave.yaml': manifest('none'), 'pipelines/p.yaml': pipeline });
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(1);
    expect(latestRun(project).steps.slow!.failure!.class).toBe('timeout');
  });
});
