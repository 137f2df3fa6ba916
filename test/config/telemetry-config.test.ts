import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline, readManifest } from '../../src/config/load/load.js';
import { buildPlan } from '../../src/plan/plan.js';
import { makeProject } from '../support/project.js';

const HEAD = 'kind: WaveManifest\nmetadata: { name: t }\nadapters: { sh: { type: process } }\npersonas: { p: { adapter: sh } }\n';

/** The problems of a manifest whose runtime is `runtime`, each with where it is. */
async function problemsOf(runtime: string) {
  const dir = makeProject({ 'wave.yaml': `${HEAD}runtime:\n${runtime}` });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  return read.errors.map((e) => ({ code: e.code, message: e.message, line: e.location?.line, hint: e.hint }));
}

/** The plan's telemetry policy for a manifest with `runtime` (none when empty). */
async function telemetryOf(runtime: string) {
  const dir = makeProject({
    'wave.yaml': runtime ? `${HEAD}runtime:\n${runtime}` : HEAD,
    'pipelines/p.yaml': 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: a\n    persona: p\n    exec: { type: command, source: hi }\n',
  });
  const manifest = await loadManifest(join(dir, 'wave.yaml'), {});
  return buildPlan(manifest, await loadPipeline(join(dir, 'pipelines', 'p.yaml'), manifest, {}), { input: '' }).runtime.telemetry;
}

describe('runtime.telemetry in the manifest', () => {
  it('plans the OTLP endpoint, its headers and content capture', async () => {
    expect(await telemetryOf('  telemetry: { otlp: { endpoint: "https://otel.example:4318", headers: { x-key: k } }, capture_content: true }\n')).toEqual({
      otlp: { endpoint: 'https://otel.example:4318', headers: { 'x-key': 'k' } },
      captureContent: true,
    });
    expect(await telemetryOf('')).toEqual({ captureContent: false });
  });

  it('refuses an endpoint that is no http or https URL, at its line', async () => {
    const problems = await problemsOf('  telemetry:\n    otlp: { endpoint: "grpc://otel:4317" }\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 7 });
    expect(problems[0]!.message).toContain('runtime.telemetry.otlp.endpoint');
  });

  it('refuses an unknown key by name', async () => {
    const problems = await problemsOf('  telemetry: { sample_rate: 0.5 }\n');
    expect(problems.map((p) => p.code)).toEqual(['unknown_key']);
    expect(problems[0]!.message).toContain('sample_rate');
  });
});
