import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

/** A manifest of the given adapter and persona lines (each already indented by 2). */
const manifest = (adapters: string, personas: string) => `kind: WaveManifest
metadata: { name: t }
adapters:
${adapters}
personas:
${personas}
`;

async function problemsOf(text: string) {
  const dir = makeProject({ 'wave.yaml': text });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  return read.errors.map((e) => ({ code: e.code, message: e.message, line: e.location?.line, hint: e.hint }));
}

describe('adapter tier_models and model tiers in the manifest', () => {
  it("accepts tier_models and the tiers its adapter maps (Wave's own wave.yaml shape)", async () => {
    const text = manifest(
      '  claude: { binary: claude, default_model: sonnet }\n  opencode-qwen:\n    binary: opencode-patched\n    tier_models: { cheapest: ollama/qwen, balanced: ollama/qwen, strongest: ollama/qwen }',
      '  fast: { adapter: claude, model: cheapest }\n  local: { adapter: opencode-qwen, model: strongest }',
    );
    expect(await problemsOf(text)).toEqual([]);
  });

  it("refuses a tier its adapter does not map, at the persona's model, saying where to map it", async () => {
    const problems = await problemsOf(manifest('  oc: { type: opencode, model: ollama/qwen }', '  p:\n    adapter: oc\n    model: cheapest'));
    expect(problems).toEqual([
      {
        code: 'model_tier_unmapped',
        message: 'persona `p` asks for model tier `cheapest`, which adapter `oc` (opencode) does not map to a model',
        line: 8,
        hint: "Map it in `adapters.oc.tier_models`, e.g. `tier_models: { cheapest: <model> }`, or name a model instead of the tier (Wave's defaults are Claude models, for claude adapters only).",
      },
    ]);
    // balanced is always mapped: it is the adapter's own model.
    expect(await problemsOf(manifest('  oc: { type: opencode }', '  p: { adapter: oc, model: balanced }'))).toEqual([]);
  });

  it("refuses an adapter's own model tier it cannot map, and a tier_models entry that names a tier", async () => {
    const problems = await problemsOf(manifest('  cx:\n    type: codex\n    model: strongest\n    tier_models: { cheapest: balanced }', '  p: { adapter: cx }'));
    expect(problems.map((p) => [p.code, p.line])).toEqual([
      ['model_tier_unmapped', 6],
      ['wrong_type', 7],
    ]);
    expect(problems[1]!.message).toBe('`adapters.cx.tier_models.cheapest` names tier `balanced`, not a model');
  });

  it('an unknown tier name in tier_models is an unknown key with a suggestion', async () => {
    const [problem] = await problemsOf(manifest('  claude: { tier_models: { cheep: claude-x } }', '  p: { adapter: claude }'));
    expect(problem).toMatchObject({ code: 'unknown_key', line: 4 });
    expect(problem!.message).toContain('cheep');
    expect(problem!.hint).toContain('cheapest');
  });
});

describe('a step model tier, planned', () => {
  const adapters = '  claude: { binary: claude, model: sonnet, tier_models: { strongest: claude-strong } }\n  oc: { type: opencode, model: ollama/qwen }';
  const personas = '  writer: { adapter: claude, model: cheapest }\n  local: { adapter: oc }';
  const pipeline = (localModel: string) => `kind: WavePipeline
metadata: { name: tiers }
steps:
  - id: cheap
    persona: writer
    exec: { type: prompt, source: "a" }
  - id: strong
    persona: writer
    model: strongest
    exec: { type: prompt, source: "b" }
  - id: middle
    persona: writer
    model: balanced
    exec: { type: prompt, source: "c" }
  - id: local
    persona: local
    model: ${localModel}
    exec: { type: prompt, source: "d" }
`;

  it('--dry-run shows the model each CLI gets and the tier it came from; a name that is no tier is a model', async () => {
    const dir = makeProject({ 'wave.yaml': manifest(adapters, personas), 'pipelines/tiers.yaml': pipeline('fastest') });
    const dry = await runWave(['run', 'tiers', '--dry-run'], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('runs on:   claude (claude), model claude-haiku-4-5 (tier cheapest)');
    expect(dry.stdout).toContain('runs on:   claude (claude), model claude-strong (tier strongest)');
    expect(dry.stdout).toContain('runs on:   claude (claude), model sonnet (tier balanced)');
    expect(dry.stdout).toContain('runs on:   oc (opencode), model fastest');
    expect(dry.stdout).not.toMatch(/model (cheapest|balanced|strongest)\b/);
  });

  it('wave validate refuses a step tier its adapter does not map, at the step', async () => {
    const dir = makeProject({ 'wave.yaml': manifest(adapters, personas), 'pipelines/tiers.yaml': pipeline('strongest') });
    const result = await runWave(['validate', '--json', 'tiers'], { cwd: dir });
    expect(result.code).toBe(2);
    const problems = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'model_tier_unmapped',
        file: expect.stringContaining('tiers.yaml'),
        line: 17,
        message: 'step `local` asks for model tier `strongest`, which adapter `oc` (opencode) does not map to a model',
        hint: expect.stringContaining('`adapters.oc.tier_models`'),
      }),
    ]);
  });
});
