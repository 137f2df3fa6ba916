import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { adapterTypeOf } from '../../src/config/schema/adapter-type.js';
import { definitionProblems } from '../../src/core/adapter-plugin.js';
import { defineAdapter } from '../../src/adapters/plugin/define-adapter.js';
import { pluginDescriptor } from '../../src/adapters/plugin/plugin-descriptor.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

/** The packaged `wave-pipelines/adapter`, as a plugin module of a project outside this repository imports it (npm run build makes it). */
const DIST_DEFINE_ADAPTER = fileURLToPath(new URL('../../dist/bundle/adapter.js', import.meta.url));
const FIXTURE_ADAPTER = fileURLToPath(new URL('../fixtures/plugin-cli/adapter.mjs', import.meta.url));

/** A manifest whose adapter `mycli` names `module` (line 4, where the module's errors are located). */
function pluginManifest(module: string, extra = ''): string {
  return `kind: WaveManifest
metadata: { name: plugins }
adapters:
  mycli: { module: ${module}${extra} }
personas:
  dev: { adapter: mycli }
`;
}

/** A plugin module exporting defineAdapter(`fields`) (JavaScript source of an object literal). */
const moduleExporting = (fields: string) => `import { defineAdapter } from ${JSON.stringify(DIST_DEFINE_ADAPTER)};\nexport default defineAdapter(${fields});\n`;

/** The errors `readManifest` reports for a project made of `files`. */
async function manifestErrors(files: Record<string, string>) {
  const project = makeProject(files);
  const read = await readManifest(`${project}/wave.yaml`);
  return read.errors;
}

describe('plugin adapters: a manifest adapter that names a module', () => {
  it('a module selects type plugin; an explicit type still wins', () => {
    expect(adapterTypeOf('mycli', { module: './a.mjs' })).toBe('plugin');
    expect(adapterTypeOf('claude', { module: './a.mjs' })).toBe('plugin');
    expect(adapterTypeOf('plugin', {})).toBe('process');
  });

  it('the fixture plugin loads without errors, and its module path is made absolute against the manifest', async () => {
    const project = makeProject({ 'wave.yaml': pluginManifest('./adapters/mycli.mjs'), 'adapters/mycli.mjs': `export { default } from ${JSON.stringify(FIXTURE_ADAPTER)};\n` });
    const read = await readManifest(`${project}/wave.yaml`);
    expect(read.errors).toEqual([]);
    expect(read.value?.adapters?.mycli?.module).toBe(`${project}/adapters/mycli.mjs`);
  });

  it('a module without a stream parser: a located error naming the missing field, with a hint', async () => {
    const errors = await manifestErrors({
      'wave.yaml': pluginManifest('./mycli.mjs'),
      'mycli.mjs': moduleExporting("{ name: 'mycli', binary: 'mycli', prepare: async (c) => ({ args: [], env: c.env }) }"),
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('adapter `mycli`: module `./mycli.mjs` is no adapter: `stream` (a function) is missing');
    expect(errors[0]!.location).toMatchObject({ line: 4, column: 20 });
    expect(errors[0]!.hint).toContain('defineAdapter({ name, binary, prepare, stream');
  });

  it('a module that throws at import: a located error with what it threw', async () => {
    const errors = await manifestErrors({ 'wave.yaml': pluginManifest('./mycli.mjs'), 'mycli.mjs': "throw new Error('no config for mycli');\n" });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('adapter `mycli`: module `./mycli.mjs` cannot be used: loading it threw: no config for mycli');
    expect(errors[0]!.location).toMatchObject({ line: 4 });
    expect(errors[0]!.hint).toMatch(/^Fix the module/);
  });

  it('a default export that is no defineAdapter value, a mistyped field, a missing file, a conflicting type', async () => {
    const plain = await manifestErrors({ 'wave.yaml': pluginManifest('./mycli.mjs'), 'mycli.mjs': "export default { name: 'mycli' };\n" });
    expect(plain.map((e) => e.message)).toEqual(['adapter `mycli`: module `./mycli.mjs` is no adapter: its default export is not a defineAdapter({...}) value']);
    const mistyped = await manifestErrors({
      'wave.yaml': pluginManifest('./mycli.mjs'),
      'mycli.mjs': moduleExporting("{ name: 'mycli', binary: 7, prepare: () => ({}), stream: () => ({}) }"),
    });
    expect(mistyped.map((e) => e.message)).toEqual(['adapter `mycli`: module `./mycli.mjs` is no adapter: `binary` is a number, not a string']);
    const missing = await manifestErrors({ 'wave.yaml': pluginManifest('./nowhere.mjs') });
    expect(missing[0]).toMatchObject({ code: 'file_not_found', location: { line: 4 } });
    const typed = await manifestErrors({ 'wave.yaml': pluginManifest(JSON.stringify(FIXTURE_ADAPTER), ', type: claude') });
    expect(typed.map((e) => e.message)).toEqual(['adapter `mycli` names a module, so its type must be plugin, not "claude"']);
  });

  it('`wave validate` prints the located error and its hint, and exits 2', async () => {
    const project = makeProject({ 'wave.yaml': pluginManifest('./mycli.mjs'), 'mycli.mjs': "export default 'not an adapter';\n" });
    const result = await runWave(['validate'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toMatch(/wave\.yaml:4:\d+/);
    expect(result.stderr + result.stdout).toContain('its default export is not a defineAdapter({...}) value');
  });

  it('defineAdapter marks its value; the descriptor fills the optional fields with their documented defaults', () => {
    const definition = defineAdapter({
      name: 'mycli',
      binary: 'mycli',
      prepare: async (c) => ({ args: [], env: c.env }),
      stream: () => ({ line: () => [], finish: () => ({ ok: true, text: '', tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }) }),
    });
    expect(definitionProblems(definition)).toEqual([]);
    expect(definitionProblems({ ...definition })).toEqual([]);
    const descriptor = pluginDescriptor(definition);
    expect(descriptor).toMatchObject({
      type: 'plugin',
      binary: 'mycli',
      keyVariables: [],
      endpoint: { variables: [], fallback: null },
      loginStatus: null,
      configFiles: [],
      instructionsFile: null,
      skillsFolder: null,
      skillCommandsFolder: null,
      models: { tierDefaults: {}, defaultMeansNone: false, priceProvider: null, temperature: 'never' },
    });
    expect(descriptor.login.files({})).toEqual([]);
    expect(descriptor.runner.refusedResume).toBeUndefined();
  });
});
