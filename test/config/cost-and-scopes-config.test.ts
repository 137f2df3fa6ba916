import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline, readManifest } from '../../src/config/load/load.js';
import { buildPlan } from '../../src/plan/plan.js';
import { makeProject } from '../support/project.js';

/** The problems of a manifest with `runtime` and a persona `p` carrying `persona` settings. */
async function problemsOf(runtime: string, persona = '') {
  const dir = makeProject({
    'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
personas:
  p:
    adapter: claude
${persona}runtime:
${runtime}`,
  });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  return read.errors.map((e) => ({ code: e.code, message: e.message, line: e.location?.line, column: e.location?.column, hint: e.hint }));
}

/** The plan's budget and forge facts for a manifest. */
async function planOf(manifest: string) {
  const dir = makeProject({
    'wave.yaml': manifest,
    'pipelines/p.yaml':
      'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: a\n    persona: p\n    exec: { source: hi }\n  - id: b\n    persona: p\n    exec: { source: hi }\n',
  });
  const m = await loadManifest(join(dir, 'wave.yaml'), {});
  return buildPlan(m, await loadPipeline(join(dir, 'pipelines', 'p.yaml'), m, {}), { input: '' });
}

describe('runtime.cost in the manifest', () => {
  it("accepts Wave's own form (enabled, budget_ceiling, warn_at, currency USD) and plans its limits in dollars", async () => {
    expect(await problemsOf('  cost: { enabled: true, budget_ceiling: 50.0, warn_at: 25.0, currency: usd }\n')).toEqual([]);
    const plan = await planOf(
      'kind: WaveManifest\nmetadata: { name: t }\nadapters: { claude: { binary: claude } }\npersonas: { p: { adapter: claude } }\nruntime:\n  cost: { enabled: true, budget_ceiling: 50, warn_at: 25 }\n',
    );
    expect(plan.runtime.budget).toEqual({ ceilingUsd: 50, warnAtUsd: 25 });
  });

  it('plans no limit for 0 (Wave: 0 = unlimited) or without runtime.cost', async () => {
    const base = 'kind: WaveManifest\nmetadata: { name: t }\nadapters: { claude: { binary: claude } }\npersonas: { p: { adapter: claude } }\n';
    expect((await planOf(`${base}runtime:\n  cost: { budget_ceiling: 0 }\n`)).runtime.budget).toBeUndefined();
    expect((await planOf(base)).runtime.budget).toBeUndefined();
  });

  it('refuses a currency other than USD by name, at its value', async () => {
    const [problem, ...rest] = await problemsOf('  cost:\n    budget_ceiling: 5\n    currency: EUR\n');
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'not_supported', line: 11, column: 15 });
    expect(problem!.message).toBe('`runtime.cost.currency: EUR` is not supported: costs are counted in US dollars only');
    expect(problem!.hint).toContain('currency: USD');
  });

  it('refuses a warn_at that could never fire: without enabled or a ceiling, or not below the ceiling', async () => {
    expect(await problemsOf('  cost:\n    warn_at: 3\n')).toEqual([
      expect.objectContaining({ code: 'missing_field', line: 10, message: expect.stringContaining('only with `enabled: true` or a `budget_ceiling`') }),
    ]);
    expect(await problemsOf('  cost: { budget_ceiling: 5, warn_at: 5 }\n')).toEqual([
      expect.objectContaining({ code: 'conflicting_fields', line: 9, message: expect.stringContaining('is not below `budget_ceiling` (5)') }),
    ]);
  });

  it('refuses a negative amount with its location', async () => {
    expect(await problemsOf('  cost: { budget_ceiling: -1 }\n')).toEqual([expect.objectContaining({ code: 'wrong_type', line: 9 })]);
  });
});

describe('persona token_scopes in the manifest', () => {
  it("accepts Wave's forms: <resource>:<permission>, any case, an @ENV_VAR, and a resource outside the canonical five", async () => {
    expect(await problemsOf('  max_concurrency: 1\n', '    token_scopes: [issues:read, PULLS:Write, repos:admin@GITHUB_TOKEN, workflows:write]\n')).toEqual([]);
  });

  it.each([
    ['issues', 'no permission'],
    ['issues:delete', 'a permission that is not read, write or admin'],
    ['issues:read@', 'an empty variable'],
    [':read', 'no resource'],
  ])('refuses `%s` (%s) at its entry, with the form in the hint', async (scope) => {
    const problems = await problemsOf('  max_concurrency: 1\n', `    token_scopes:\n      - issues:read\n      - "${scope}"\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'wrong_type', line: 10, column: 9 });
    expect(problems[0]!.message).toContain('`personas.p.token_scopes[1]`');
    expect(problems[0]!.hint).toContain('<resource>:<permission>[@ENV_VAR]');
    expect(problems[0]!.hint).toContain('issues, pulls, repos, actions or packages');
  });

  it('plans the scopes of the personas the steps run as, once each, with their place in the manifest', async () => {
    const plan = await planOf(
      'kind: WaveManifest\nmetadata: { name: t, forge: github }\nadapters: { claude: { binary: claude } }\npersonas:\n  p:\n    adapter: claude\n    env: { GH_TOKEN: x }\n    token_scopes: [issues:write]\n  unused: { adapter: claude, token_scopes: [repos:admin] }\nruntime: { timeouts: { forge_api_seconds: 15 } }\n',
    );
    expect(plan.forge).toEqual({
      info: expect.objectContaining({ type: 'github' }),
      override: 'github',
      apiTimeoutMs: 15_000,
      scopes: [{ persona: 'p', scope: 'issues:write', personaEnv: ['GH_TOKEN'], location: expect.objectContaining({ line: 8, column: 20 }) }],
    });
  });
});
