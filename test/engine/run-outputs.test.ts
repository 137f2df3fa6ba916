import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PipelineOutputDef } from '../../src/config/schema/deliverable-schema.js';
import { collectRunOutputs, MAX_OUTPUT_VALUE_BYTES } from '../../src/engine/run/run-outputs.js';
import type { ArtifactRecord } from '../../src/state/record/run-record.js';
import { sampleRecord, sampleStep, tempDir } from '../state/sample-run.js';

/** A run folder whose step `make` completed with these stored artifacts (name → content; a folder when an object). */
function runWith(artifacts: Record<string, string | Buffer | Record<string, string>>) {
  const runDir = tempDir('wave-outputs-');
  const records: ArtifactRecord[] = Object.entries(artifacts).map(([name, content]) => {
    const path = join('artifacts', 'make', name);
    if (typeof content === 'string' || Buffer.isBuffer(content)) {
      mkdirSync(join(runDir, 'artifacts', 'make'), { recursive: true });
      writeFileSync(join(runDir, path), content);
      return { name, path, bytes: Buffer.byteLength(content) };
    }
    mkdirSync(join(runDir, path), { recursive: true });
    for (const [file, text] of Object.entries(content)) writeFileSync(join(runDir, path, file), text);
    return { name, path, bytes: 0 };
  });
  const record = sampleRecord('r', {}, [sampleStep('make', { status: 'completed', artifacts: records }), sampleStep('later', { status: 'skipped' })]);
  return (outputs: Record<string, PipelineOutputDef>) => collectRunOutputs({ outputs }, record, runDir);
}

describe('named outputs at the end of a run', () => {
  it('are the artifact text, or the value at `field` rendered as Wave does; the type defaults to string', () => {
    const resolve = runWith({ result: '{"pr":{"url":"https://x/7","number":7},"items":[{"id":"a"}]}', notes: 'All good.\n' });
    expect(
      resolve({
        url: { step: 'make', artifact: 'result', field: 'pr.url', type: 'pr_ref' },
        number: { step: 'make', artifact: 'result', field: '.pr.number' },
        first: { step: 'make', artifact: 'result', field: 'items[0]' },
        notes: { step: 'make', artifact: 'notes' },
      }),
    ).toEqual({
      outputs: {
        url: { step: 'make', artifact: 'result', field: 'pr.url', type: 'pr_ref', path: 'artifacts/make/result', value: 'https://x/7' },
        number: { step: 'make', artifact: 'result', field: '.pr.number', type: 'string', path: 'artifacts/make/result', value: '7' },
        first: { step: 'make', artifact: 'result', field: 'items[0]', type: 'string', path: 'artifacts/make/result', value: '{"id":"a"}' },
        notes: { step: 'make', artifact: 'notes', type: 'string', path: 'artifacts/make/notes', value: 'All good.\n' },
      },
      warnings: [],
    });
  });

  it('are absent with a warning when the artifact was not saved, is not JSON, or lacks the field', () => {
    const resolve = runWith({ result: '{"a":1}', prose: 'not json' });
    const { outputs, warnings } = resolve({
      gone: { step: 'make', artifact: 'missing' },
      skipped: { step: 'later', artifact: 'x' },
      prose: { step: 'make', artifact: 'prose', field: 'a' },
      nope: { step: 'make', artifact: 'result', field: 'b' },
    })!;
    expect(outputs).toEqual({});
    expect(warnings).toEqual([
      'output `gone`: step `make` completed without saving artifact `missing` (it is not required)',
      'output `skipped`: step `later` was skipped, so its artifact `x` was not saved',
      expect.stringMatching(/^output `prose`: artifact `prose` is not JSON, so it has no field `a` \(/) as string,
      'output `nope`: field `b` of artifact `result`: key "b" not found',
    ]);
  });

  it('keep only the path of a value past 64 KiB, of a folder and of a binary file, each with a warning', () => {
    const resolve = runWith({ big: 'x'.repeat(MAX_OUTPUT_VALUE_BYTES + 1), dir: { 'a.txt': 'a' }, bin: Buffer.from([0xff, 0xfe, 0x00]) });
    const { outputs, warnings } = resolve({ big: { step: 'make', artifact: 'big' }, dir: { step: 'make', artifact: 'dir' }, bin: { step: 'make', artifact: 'bin' } })!;
    expect(outputs).toEqual({
      big: { step: 'make', artifact: 'big', type: 'string', path: 'artifacts/make/big' },
      dir: { step: 'make', artifact: 'dir', type: 'string', path: 'artifacts/make/dir' },
      bin: { step: 'make', artifact: 'bin', type: 'string', path: 'artifacts/make/bin' },
    });
    expect(warnings).toEqual([
      'output `big`: its value is 65 KiB, more than 64 KiB: it is left out of run.json, read it from artifacts/make/big',
      'output `dir`: artifact `dir` is a folder: the output is its path, artifacts/make/dir',
      'output `bin`: artifact `bin` is not text: the output is its path, artifacts/make/bin',
    ]);
  });

  it('are nothing at all when the pipeline declares none', () => {
    expect(runWith({})({})).toBeUndefined();
  });
});
