import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { unsupportedFeatures } from '../../src/config/checks/unsupported-features.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

/** A manifest carrying settings of Wave features no run here uses, beside a working runtime. */
const MANIFEST = `${SHELL_MANIFEST}  audit: { log_all_tool_calls: true, log_dir: .agents/traces/ }
  meta_pipeline: { max_depth: 2 }
  routing: { auto_route: false, default: impl-issue }
server: { bind: 127.0.0.1:8080 }
`;

/** A pipeline with such settings too, and one command step that runs. */
const PIPELINE = `kind: WavePipeline
metadata: { name: warned }
chat_context:
  focus_areas: [findings]
# max_step_visits is built now (test/engine/graph.e2e.test.ts)
steps:
  - id: hello
    contexts: [execution]
    # max_visits is built now
    exec: { type: command, source: "printf hello > out.txt" }
    output_artifacts: [{ name: out, path: out.txt }]
    handover:
      on_review_fail: rework
      target_step: hello
`;

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string> = {}): string {
  const dir = makeProject({ 'wave.yaml': MANIFEST, 'pipelines/warned.yaml': PIPELINE, ...files });
  projects.push(dir);
  return dir;
}

describe('settings of Wave features nothing in a run uses', () => {
  it('load with one warning each, at the key, with a hint: never an error, never silent', async () => {
    const dir = project();
    const manifest = await readManifest(join(dir, 'wave.yaml'), {});
    expect(manifest.errors).toEqual([]);
    expect(manifest.warnings.map((w) => [w.code, w.location?.line, w.location?.column, w.message.split(' (')[0]])).toEqual([
      ['not_supported', 10, 3, '`runtime.audit`'],
      ['not_supported', 11, 3, '`runtime.meta_pipeline`'],
      ['not_supported', 12, 3, '`runtime.routing`'],
      ['not_supported', 13, 1, '`server`'],
    ]);
    for (const warning of manifest.warnings) {
      expect(warning.message).toMatch(/is not supported yet and is ignored: nothing in a run here uses it$/);
      expect(warning.hint).toBe('Remove it to silence this warning; `wave validate --strict` treats it as an error.');
      expect(warning.location?.file).toBe(join(dir, 'wave.yaml'));
    }
    const pipeline = await readPipeline(join(dir, 'pipelines', 'warned.yaml'), manifestView(manifest), {});
    expect(pipeline.errors).toEqual([]);
    expect(pipeline.value?.steps[0]?.id).toBe('hello');
    expect(pipeline.warnings.map((w) => [w.location?.line, w.message.split(' (')[0]])).toEqual([
      [3, '`chat_context`'],
      [8, '`contexts`'],
      [13, '`handover.on_review_fail`'],
      [14, '`handover.target_step`'],
    ]);
  });

  it("stay errors when the run would need the feature: a step's work; the manifest's relay, compaction and model routing only warn", async () => {
    const dir = project({
      'wave.yaml': MANIFEST.replace('auto_route: false', 'auto_route: true'),
      'pipelines/needs.yaml': `kind: WavePipeline
metadata: { name: needs }
steps:
  - id: each
    validation: [{ type: json_schema }]
    exec: { type: command, source: "true" }
  - id: summary
    dependencies: [each]
    exec: { type: command, source: "true" }
    handover:
      compaction: { trigger: token_limit }
`,
    });
    const manifest = await readManifest(join(dir, 'wave.yaml'), {});
    // No run here compacts a context or routes by complexity: each step runs on the model it names, as the warning says.
    expect(manifest.errors).toEqual([]);
    expect(manifest.warnings.map((w) => w.message.split(' (')[0])).toContain('`runtime.routing.auto_route: true`');
    expect(manifest.warnings.find((w) => w.message.startsWith('`runtime.routing.auto_route: true`'))!.message).toContain('each step runs on the model its step or persona names');
    const pipeline = await readPipeline(join(dir, 'pipelines', 'needs.yaml'), manifestView(manifest), {});
    expect(pipeline.errors.map((e) => [e.code, e.message.split(' (')[0]])).toEqual([['not_supported', '`validation`']]);
    // Wave's compaction writes a summary nothing reads: accepted, with a warning saying so.
    expect(pipeline.warnings.map((w) => w.message.split(' (')[0])).toEqual(['`handover.compaction`']);
    expect(pipeline.warnings[0]!.message).toContain('Wave writes a summary of a long step that nothing reads');
  });

  it('are the features the list marks unused, and only those', () => {
    const unused = unsupportedFeatures()
      .filter((f) => f.unused)
      .map((f) => f.name);
    for (const name of [
      '`chat_context`',
      '`runtime.audit`',
      '`runtime.meta_pipeline`',
      '`runtime.routing`',
      '`runtime.relay`',
      '`handover.compaction`',
      '`server`',
      '`runtime.timeouts.meta_default_minutes`',
      '`gate.tui_action`',
    ]) {
      expect(unused).toContain(name);
    }
    const refused = unsupportedFeatures()
      .filter((f) => !f.unused)
      .map((f) => f.name);
    for (const name of ['event_contains']) {
      expect(refused.some((r) => r.includes(name))).toBe(true);
    }
  });
});

describe('wave validate and warnings', () => {
  it('prints `warning:` lines with file:line:col and exits 0', async () => {
    const result = await runWave(['validate'], { cwd: project() });
    expect(result.code, result.stdout).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('✓ wave.yaml');
    expect(lines[1]).toBe('warning: wave.yaml:10:3: not_supported: `runtime.audit` (audit logs) is not supported yet and is ignored: nothing in a run here uses it');
    expect(lines[2]).toBe('  hint: Remove it to silence this warning; `wave validate --strict` treats it as an error.');
    expect(lines).toContain('✓ pipelines/warned.yaml');
    expect(lines).toContain(
      'warning: pipelines/warned.yaml:3:1: not_supported: `chat_context` (post-run chat sessions) is not supported yet and is ignored: nothing in a run here uses it',
    );
    expect(lines.at(-1)).toBe('2 files valid, 8 warnings');
  });

  it('gives each problem a severity in --json', async () => {
    const result = await runWave(['validate', '--json'], { cwd: project() });
    expect(result.code).toBe(0);
    const problems = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(problems).toHaveLength(8);
    expect(problems[0]).toEqual({
      code: 'not_supported',
      severity: 'warning',
      file: 'wave.yaml',
      line: 10,
      column: 3,
      message: '`runtime.audit` (audit logs) is not supported yet and is ignored: nothing in a run here uses it',
      hint: 'Remove it to silence this warning; `wave validate --strict` treats it as an error.',
    });
    expect(problems.every((p) => p.severity === 'warning')).toBe(true);
  });

  it('makes them errors with --strict: exit 2, each an error in text and in JSON', async () => {
    const dir = project();
    const text = await runWave(['validate', '--strict'], { cwd: dir });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('✗ wave.yaml\nwave.yaml:10:3: not_supported: `runtime.audit`');
    expect(text.stdout).not.toContain('warning:');
    expect(text.stdout.split('\n').at(-1)).toBe('8 problems in 2 of 2 files');
    const json = await runWave(['validate', '--strict', '--json'], { cwd: dir });
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as Array<{ severity: string }>).map((p) => p.severity)).toEqual(Array(8).fill('error'));
  });
});

describe('wave run and warnings', () => {
  it('prints them once on stderr before running, and runs', async () => {
    const dir = project();
    const result = await runWave(['run', 'warned', '--output', 'text'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(8);
    expect(new Set(warnings).size).toBe(8);
    expect(warnings[0]).toBe(
      `warning: ${join(dir, 'wave.yaml')}:10:3: not_supported: \`runtime.audit\` (audit logs) is not supported yet and is ignored: nothing in a run here uses it`,
    );
    expect(result.stderr.indexOf('warning: ')).toBe(0);
    expect(result.stdout).toContain('hello');
  });
});
