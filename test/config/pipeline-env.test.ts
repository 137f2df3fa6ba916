import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline } from '../../src/config/load/load.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

// As in Wave (its loader expands nothing in a pipeline), `${VAR}` in a pipeline is the step shell's; the manifest's expand.
const PIPELINE = `kind: WavePipeline
metadata: { name: env }
steps:
  - id: greet
    env: { SLUG: from-the-step, WAVE_DEP_FOO: dep-value }
    exec:
      type: command
      source: printf '%s|%s|%s|' "\${SLUG}" "\${WAVE_DEP_FOO:-fallback}" "\${NOT_SET_ANYWHERE:-default}" > out.txt; printf '%s' {{ project.greeting }} >> out.txt
    output_artifacts: [{ name: out, path: out.txt }]
`;
const MANIFEST = SHELL_MANIFEST.replace('metadata: { name: test }', 'metadata: { name: test }\nproject: { greeting: "${WAVE_TEST_GREETING:-unset}" }');

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = makeProject({ 'wave.yaml': MANIFEST, 'pipelines/env.yaml': PIPELINE });
  projects.push(dir);
  return dir;
}

describe('environment references in a pipeline', () => {
  it('are left in the command as written when loading, whatever the environment of wave holds', async () => {
    const dir = project();
    const env = { SLUG: 'from-the-loader', WAVE_TEST_GREETING: 'hello' };
    const manifest = await loadManifest(join(dir, 'wave.yaml'), env);
    const pipeline = await loadPipeline(join(dir, 'pipelines', 'env.yaml'), manifest, env);
    expect(pipeline.value.steps[0]!.exec?.source).toContain(`"\${SLUG}" "\${WAVE_DEP_FOO:-fallback}" "\${NOT_SET_ANYWHERE:-default}"`);
    expect(pipeline.envTaken).toEqual({});
    // The manifest's still expand.
    expect(manifest.value.project).toEqual({ greeting: 'hello' });
    expect(manifest.envTaken).toEqual({ WAVE_TEST_GREETING: 'hello' });
  });

  it("refuse a ${VAR} in a step's env value, which no shell would expand, saying how to pass the variable", async () => {
    const dir = makeProject({
      'wave.yaml': MANIFEST,
      'pipelines/env.yaml': PIPELINE.replace('env: { SLUG: from-the-step, WAVE_DEP_FOO: dep-value }', 'env: { SLUG: "${SLUG}", PLAIN: "cost: $5" }'),
    });
    projects.push(dir);
    const result = await runWave(['validate', 'env'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      "pipelines/env.yaml:5:18: wrong_type: `env.SLUG` of step `greet` is `${SLUG}`: a pipeline's `${SLUG}` is not expanded, so the step would get it as written",
    );
    expect(result.stdout).toContain("hint: To hand SLUG from wave's environment to the step, list it in runtime.sandbox.env_passthrough");
    expect(result.stdout.match(/wrong_type/g)).toHaveLength(1);
  });

  it('validate without the variables set: no env_unset for a ${SLUG} the step shell sets', async () => {
    const result = await runWave(['validate'], { cwd: project(), env: { SLUG: '', WAVE_DEP_FOO: '' } });
    expect(result.stdout).toBe('✓ wave.yaml\n✓ pipelines/env.yaml\n2 files valid');
    expect(result.code).toBe(0);
  });

  it('are expanded by the shell at run time, from the step environment, while the manifest expanded at load', async () => {
    const dir = project();
    const run = await runWave(['run', 'env', '--output', 'text', '--keep-workspaces'], { cwd: dir, env: { SLUG: 'from-the-loader', WAVE_TEST_GREETING: 'hello' } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [runId] = readdirSync(join(dir, '.wave', 'runs'));
    // The workspace copy: the run folder's copy hides what the manifest took from the environment.
    const out = readFileSync(join(dir, '.wave', 'workspaces', runId!, 'greet', 'out.txt'), 'utf8');
    // SLUG and WAVE_DEP_FOO from the step's env (not the loader's SLUG, not the default the loader would have picked).
    expect(out).toBe('from-the-step|dep-value|default|hello');
  });
});
