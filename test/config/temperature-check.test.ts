import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { makeProject } from '../support/project.js';

/** The problems of a manifest whose persona `p` runs on `adapter` with a temperature. */
async function problemsOf(adapter: string, files: Record<string, string> = {}): Promise<Array<{ code: string; message: string; line?: number; hint?: string }>> {
  const dir = makeProject({
    ...files,
    'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  a: ${adapter}
personas:
  p:
    adapter: a
    temperature: 0.2
`,
  });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  return read.errors.map((e) => ({ code: e.code, message: e.message, line: e.location?.line, hint: e.hint }));
}

describe('persona temperature', () => {
  it.each([
    ['{ type: claude }', 'claude takes no temperature'],
    ['{ type: codex }', 'codex takes no temperature'],
    ['{ type: process, binary: sh }', 'a process adapter has no model'],
    ['{ type: gemini }', 'with `isolated: true`'],
  ])('is refused by name, at its line, for %s', async (adapter, why) => {
    const [problem, ...rest] = await problemsOf(adapter);
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'not_supported', line: 8 });
    expect(problem!.message).toContain('persona `p` sets a temperature');
    expect(problem!.message).toContain(why);
    expect(problem!.hint).toMatch(/^Remove the temperature, or run the persona on an llm or opencode adapter/);
  });

  it.each([['{ type: llm, base_url: "http://127.0.0.1:1/v1" }'], ['{ type: opencode }'], ['{ type: gemini, isolated: true }']])(
    'is accepted where the adapter passes it on: %s',
    async (adapter) => {
      expect(await problemsOf(adapter)).toEqual([]);
    },
  );

  /** A plugin module whose definition says `models` (JavaScript source of an object literal, or nothing). */
  const plugin = (models?: string) => ({
    'cli.mjs': `import { defineAdapter } from ${JSON.stringify(fileURLToPath(new URL('../../dist/bundle/adapter.js', import.meta.url)))};
export default defineAdapter({ name: 'inhouse', binary: 'inhouse', prepare: async () => ({ args: [], env: {} }), stream: () => ({ line: () => [], finish: () => ({ ok: true, text: '' }) })${models ? `, models: ${models}` : ''} });
`,
  });

  it("is refused for a plugin whose definition says its CLI takes none (the default), with the plugin's own hint", async () => {
    const [problem, ...rest] = await problemsOf('{ module: ./cli.mjs }', plugin());
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'not_supported', line: 8 });
    expect(problem!.message).toContain("inhouse takes no temperature (its definition's models.temperature is 'never', the default)");
    expect(problem!.hint).toMatch(/^Remove the temperature, or set `models: \{ temperature: 'always' \}` in the plugin's defineAdapter/);
    const isolatedOnly = await problemsOf('{ module: ./cli.mjs }', plugin("{ temperature: 'isolated' }"));
    expect(isolatedOnly.map((p) => p.message)).toEqual([expect.stringContaining('inhouse takes a temperature only in the settings Wave writes with `isolated: true`')]);
  });

  it('is accepted for a plugin whose definition takes one', async () => {
    expect(await problemsOf('{ module: ./cli.mjs }', plugin("{ temperature: 'always' }"))).toEqual([]);
    expect(await problemsOf('{ module: ./cli.mjs, isolated: true }', plugin("{ temperature: 'isolated' }"))).toEqual([]);
  });
});
