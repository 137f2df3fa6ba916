import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';
import { YamlLanguageClient, type Diagnostic } from './lsp-client.js';

const scratch = scratchFolder('wave-editor-schema-');

/** A diagnostic that says the editor could not read the schema the file names. */
const unloadable = (d: Diagnostic) => /unable to load schema|problems loading reference/i.test(d.message);

/** The file's text with `line` put after its line `after`; returns the text and the index of the new line. */
function withLineAfter(text: string, after: RegExp, line: string): { text: string; index: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => after.test(l)) + 1;
  expect(index, `no line matching ${after}`).toBeGreaterThan(0);
  lines.splice(index, 0, line);
  return { text: lines.join('\n'), index };
}

describe('editor support on a fresh clone of a project made by wave init (yaml-language-server over LSP)', () => {
  const project = join(scratch, 'project');
  const clone = join(scratch, 'clone');
  let client: YamlLanguageClient;

  beforeAll(async () => {
    const init = await runWave(['init', project]);
    expect(init.code, init.stderr).toBe(0);
    await execa('git', ['init', '-q'], { cwd: project });
    await execa('git', ['add', '.'], { cwd: project });
    await execa('git', ['commit', '-q', '-m', 'scaffold'], { cwd: project });
    await execa('git', ['clone', '-q', project, clone]);
    client = await YamlLanguageClient.start(clone);
  });

  afterAll(async () => {
    await client?.stop();
  });

  it('has no ignored file to lean on: the clone holds no .wave/', () => {
    expect(existsSync(join(clone, '.wave'))).toBe(false);
  });

  it('marks an unknown key of wave.yaml from the schema, with no "Unable to load schema"', async () => {
    const file = join(clone, 'wave.yaml');
    const { text, index } = withLineAfter(readFileSync(file, 'utf8'), /^kind: WaveManifest/, 'adaptors: {}');
    client.open(file, text);
    const diagnostics = await client.diagnosticsOf(file, (list) => list.some(unloadable) || list.some((d) => d.message.includes('adaptors')));
    expect(diagnostics.filter(unloadable)).toEqual([]);
    const unknown = diagnostics.find((d) => d.message.includes('adaptors'));
    expect(unknown, JSON.stringify(diagnostics)).toBeDefined();
    expect(unknown!.range.start.line).toBe(index);
    // Named after the schema's title: the message comes from Wave's manifest schema.
    expect(unknown!.source).toBe('yaml-schema: Wave manifest');
  });

  it('offers `persona` in completion at a step of a pipeline', async () => {
    const file = join(clone, 'pipelines', 'hello.yaml');
    const { text, index } = withLineAfter(readFileSync(file, 'utf8'), /^ {2}- id: words$/, '    ');
    client.open(file, text);
    const labels = await client.completionLabels(file, index, 4);
    expect(labels).toContain('persona');
    expect(labels).toContain('timeout_minutes');
    // The step already has these.
    expect(labels).not.toContain('dependencies');
  });
});
