import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/config/schema/manifest-schema.js';
import type { Step } from '../../src/config/schema/pipeline-schema.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { contractTarget, planContracts, planExtract } from '../../src/plan/plan-contracts.js';
import { makeProject } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude, model: sonnet }
  judge: { type: llm, base_url: "http://127.0.0.1:1/v1", model: small }
personas:
  dev: { adapter: claude }
extract: { adapter: judge, model: tiny }
`;

const SCHEMA = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };

/** The code a call throws as a WaveError. */
function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof WaveError) return error.code;
    throw error;
  }
  throw new Error('expected a WaveError');
}

describe('contractTarget', () => {
  it('is the source, else the first file artifact, else the step output', () => {
    const file = { name: 'r', path: 'out/report.json' };
    const stdout = { name: 's', source: 'stdout' as const };
    expect(contractTarget({ type: 'non_empty_file', source: 'a.md' }, [file])).toEqual({ kind: 'file', path: 'a.md' });
    expect(contractTarget({ type: 'non_empty_file' }, [file, stdout])).toEqual({ kind: 'file', path: 'out/report.json' });
    expect(contractTarget({ type: 'non_empty_file' }, [stdout, file])).toEqual({ kind: 'output' });
    expect(contractTarget({ type: 'non_empty_file' }, [])).toEqual({ kind: 'output' });
  });

  it("keeps a file named like the step output's label a file", () => {
    expect(contractTarget({ type: 'non_empty_file', source: "the step's output" }, [])).toEqual({ kind: 'file', path: "the step's output" });
  });
});

describe('planContracts', () => {
  it('reads inline, JSON-text and file schemas, resolves judges, names targets and drops switched-off contracts', async () => {
    const { plan } = await planProject({
      manifest: MANIFEST,
      pipeline: pipelineOf(
        `{ id: a, persona: dev, exec: { source: hi }, output_artifacts: [{ name: r, path: out/r.json }], handover: { contracts: [
            { type: json_schema, schema: ${JSON.stringify(SCHEMA)} },
            { type: json_schema, source: b.json, schema: ${JSON.stringify(JSON.stringify(SCHEMA))} },
            { type: json_schema, schema_path: schemas/title.json, on_failure: retry },
            { type: non_empty_file, validate: false },
            { type: llm_judge, criteria: [clear] },
            { type: llm_judge, adapter: claude, criteria: [short] } ] } }`.replace(/\n\s*/g, ' '),
      ),
      files: { 'schemas/title.json': JSON.stringify(SCHEMA) },
    });
    const contracts = attemptSteps(plan)[0]!.contracts;
    const outR = { kind: 'file', path: 'out/r.json' };
    expect(contracts.map((c) => [c.type, c.target, c.schemaObject, c.judge?.name])).toEqual([
      ['json_schema', outR, SCHEMA, undefined],
      ['json_schema', { kind: 'file', path: 'b.json' }, SCHEMA, undefined],
      ['json_schema', outR, SCHEMA, undefined],
      ['llm_judge', outR, undefined, 'judge'],
      ['llm_judge', outR, undefined, 'claude'],
    ]);
    expect(contracts[2]!.on_failure).toBe('retry');
    expect(contracts[4]!.judge).toMatchObject({ name: 'claude', type: 'claude', model: 'sonnet' });
  });

  it('takes a single handover.contract', async () => {
    const { plan } = await planProject({
      manifest: MANIFEST,
      pipeline: pipelineOf('{ id: a, persona: dev, exec: { source: hi }, handover: { contract: { type: test_suite, command: "npm test" } } }'),
    });
    expect(attemptSteps(plan)[0]!.contracts).toEqual([{ type: 'test_suite', command: 'npm test', target: { kind: 'output' } }]);
  });

  it('refuses a schema file that is no longer a JSON Schema, and a json_schema contract without one', () => {
    const dir = makeProject({ 'schemas/broken.json': '{ "type": ' });
    const manifest = { kind: 'WaveManifest' } as Manifest;
    const step = (contract: Record<string, unknown>) => ({ id: 'a', exec: {}, handover: { contract } }) as Step;
    expect(codeOf(() => planContracts(step({ type: 'json_schema', schema_path: 'schemas/broken.json' }), manifest, dir))).toBe('pipeline_invalid');
    expect(codeOf(() => planContracts(step({ type: 'json_schema', schema: { type: 'no-such-type' } }), manifest, dir))).toBe('pipeline_invalid');
    expect(codeOf(() => planContracts(step({ type: 'json_schema' }), manifest, dir))).toBe('missing_field');
  });
});

describe('planExtract', () => {
  const manifest = {
    kind: 'WaveManifest',
    adapters: { claude: { binary: 'claude' }, judge: { type: 'llm', model: 'small' } },
    extract: { adapter: 'judge', model: 'tiny' },
  } as Manifest;

  it('is undefined for a step without extract', () => {
    expect(planExtract({ id: 'a', exec: {} }, manifest, '/')).toBeUndefined();
  });

  it("takes the adapter and model from the step, else from the manifest's extract block", () => {
    const own = planExtract({ id: 'a', exec: {}, extract: { schema: SCHEMA, adapter: 'claude', model: 'opus' } }, manifest, '/');
    expect([own?.schema, own?.adapter?.name, own?.model]).toEqual([SCHEMA, 'claude', 'opus']);
    const defaulted = planExtract({ id: 'a', exec: {}, extract: { schema: JSON.stringify(SCHEMA) } }, manifest, '/');
    expect([defaulted?.schema, defaulted?.adapter?.name, defaulted?.model]).toEqual([SCHEMA, 'judge', 'tiny']);
    const bare = planExtract({ id: 'a', exec: {}, extract: { schema: SCHEMA } }, { kind: 'WaveManifest' }, '/');
    expect(bare).toEqual({ schema: SCHEMA });
  });

  it('refuses an extract without a schema', () => {
    expect(codeOf(() => planExtract({ id: 'a', exec: {}, extract: { model: 'x' } }, manifest, '/'))).toBe('missing_field');
  });
});
