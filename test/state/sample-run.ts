import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import type { RunRecord, StepRecord } from '../../src/state/record/run-record.js';

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder for one test, removed after the test file. */
export function tempDir(prefix = 'wave-state-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** A project folder with a wave.yaml, as the commands expect; returns it and its runs root. */
export function sampleProject(): { dir: string; manifest: string; runsRoot: string } {
  const dir = tempDir('wave-project-');
  const manifest = join(dir, 'wave.yaml');
  writeFileSync(manifest, 'apiVersion: v1\nkind: WaveManifest\nmetadata:\n  name: sample\n');
  return { dir, manifest, runsRoot: join(dir, '.wave', 'runs') };
}

/** A step record with defaults. */
export function sampleStep(id: string, overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    id,
    status: 'pending',
    optional: false,
    dependencies: [],
    attempts: [],
    tokens: { ...NO_TOKENS },
    artifacts: [],
    contracts: [],
    ...overrides,
  };
}

/** A run record with defaults: pipeline `hello`, steps as given. */
export function sampleRecord(id: string, overrides: Partial<RunRecord> = {}, steps: StepRecord[] = []): RunRecord {
  return {
    version: 1,
    id,
    pipeline: 'hello',
    pipelineFile: '/project/pipelines/hello.yaml',
    manifestFile: '/project/wave.yaml',
    input: '',
    status: 'completed',
    startedAt: '2024-05-01T12:00:00.000Z',
    options: { onFailure: 'halt', keepWorkspaces: false },
    steps: Object.fromEntries(steps.map((s) => [s.id, s])),
    tokens: { ...NO_TOKENS },
    ...overrides,
  };
}

/** An attempt record with defaults. */
export function sampleAttempt(attempt: number, startedAt = '2024-05-01T12:00:00.000Z') {
  return { attempt, adapter: 'shell', startedAt, tokens: { ...NO_TOKENS } };
}
