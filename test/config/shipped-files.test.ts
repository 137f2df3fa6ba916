import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadManifest, loadPipeline, listPipelineFiles } from '../../src/config/load/load.js';
import { WaveErrors, formatError } from '../../src/core/errors/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WAVE_STYLE = fileURLToPath(new URL('../fixtures/config/wave-style/', import.meta.url));

/** Loads strictly, turning a failure into a readable assertion message. */
async function strictly<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    const details = error instanceof WaveErrors ? error.errors.map(formatError).join('\n') : String(error);
    throw new Error(`expected the file to load:\n${details}`, { cause: error });
  }
}

describe('the shipped files', () => {
  it('wave.yaml loads strictly, with the adapters, personas and runtime the project promises', async () => {
    const manifest = await strictly(loadManifest(join(ROOT, 'wave.yaml'), {}));
    expect(Object.keys(manifest.value.adapters ?? {})).toEqual(['claude', 'opencode', 'codex', 'gemini', 'llm']);
    expect(manifest.value.adapters?.llm).toMatchObject({ type: 'llm', base_url: 'http://127.0.0.1:11434/v1' });
    expect(manifest.value.personas?.critic?.adapter).toBe('llm');
    // No adapter evaluates a prompt as a shell script: a prompt carries run-time text, which must never become code.
    for (const [name, adapter] of Object.entries(manifest.value.adapters ?? {})) {
      expect(adapter.args ?? [], name).not.toEqual(expect.arrayContaining([expect.stringMatching(/\{\{\s*prompt\s*\}\}/)]));
    }
    expect(manifest.value.personas?.shell).toBeUndefined();
    for (const role of ['navigator', 'craftsman', 'reviewer']) expect(manifest.value.personas?.[role]?.adapter).toBe('claude');
    expect(manifest.value.runtime).toMatchObject({
      workspace_root: '.wave/workspaces',
      max_concurrency: 4,
      sandbox: { backend: 'none', env_passthrough: [] },
    });
    expect(manifest.value.runtime?.timeouts?.step_default_minutes).toBeGreaterThan(0);
  });

  it('every pipeline in pipelines/ loads strictly against wave.yaml', async () => {
    const manifest = await strictly(loadManifest(join(ROOT, 'wave.yaml'), {}));
    const files = listPipelineFiles(ROOT);
    expect(files.map((f) => f.slice(ROOT.length))).toContain('pipelines/review.yaml');
    for (const file of files) await strictly(loadPipeline(file, manifest, {}));
  });

  it("review.yaml hands the navigator's map to the reviewer", async () => {
    const manifest = await loadManifest(join(ROOT, 'wave.yaml'), {});
    const review = await loadPipeline(join(ROOT, 'pipelines', 'review.yaml'), manifest, {});
    const [map, judge] = review.value.steps;
    expect(map?.persona).toBe('navigator');
    expect(judge?.persona).toBe('reviewer');
    expect(judge?.dependencies).toEqual([map?.id]);
    expect(judge?.memory?.inject_artifacts).toEqual([{ step: map?.id, artifact: map?.output_artifacts?.[0]?.name }]);
  });

  it('every persona prompt exists, and the base protocol sits beside them', () => {
    const manifest = parse(readFileSync(join(ROOT, 'wave.yaml'), 'utf8')) as { personas: Record<string, { system_prompt_file: string }> };
    const files = Object.values(manifest.personas).map((p) => p.system_prompt_file);
    expect(files.sort()).toEqual(['personas/craftsman.md', 'personas/critic.md', 'personas/navigator.md', 'personas/reviewer.md']);
    expect(readdirSync(join(ROOT, 'personas')).sort()).toEqual(['base-protocol.md', 'craftsman.md', 'critic.md', 'navigator.md', 'reviewer.md']);
  });

  it('every shipped YAML file starts with a schema line that points at an existing schema', () => {
    const yamlFiles = [join(ROOT, 'wave.yaml'), ...listPipelineFiles(ROOT)];
    for (const file of yamlFiles) {
      const first = readFileSync(file, 'utf8').split('\n', 1)[0]!;
      const match = /^# yaml-language-server: \$schema=(\.{1,2}\/schemas\/(manifest|pipeline)\.schema\.json)$/.exec(first);
      expect(match, `${file}: ${first}`).not.toBeNull();
      expect(match![2]).toBe(file.endsWith('wave.yaml') ? 'manifest' : 'pipeline');
      expect(existsSync(resolve(dirname(file), match![1]!))).toBe(true);
    }
  });
});

describe('a Wave-style project', () => {
  it('loads unchanged: the checked values equal what the YAML says', async () => {
    const manifestFile = join(WAVE_STYLE, 'wave.yaml');
    const pipelineFile = join(WAVE_STYLE, '.agents', 'pipelines', 'impl-feature.yaml');
    const manifest = await strictly(loadManifest(manifestFile, {}));
    const pipeline = await strictly(loadPipeline(pipelineFile, manifest, {}));
    expect(manifest.value).toEqual(parse(readFileSync(manifestFile, 'utf8')));
    expect(pipeline.value).toEqual(parse(readFileSync(pipelineFile, 'utf8')));
    expect(pipeline.value.steps.map((s) => s.id)).toEqual(['plan', 'implement', 'review']);
  });
});
