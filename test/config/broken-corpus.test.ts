import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline, manifestView, readManifest, readPipeline, type Located, type ManifestView } from '../../src/config/load/load.js';
import type { Manifest } from '../../src/config/schema/manifest-schema.js';
import { WaveErrors, formatError } from '../../src/core/errors/errors.js';
import { ERROR_CODES, type ErrorCode } from '../../src/core/errors/error-codes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/config/', import.meta.url));
const BROKEN = join(FIXTURES, 'broken');

type Expected = [ErrorCode, number, number];

/** Every broken file, the exact problems it must produce (code, line, column), and words the report must contain. */
/** …and the warnings it must give (a setting nothing in a run uses: accepted, never silently). */
const CORPUS: Array<[file: string, problems: Expected[], says?: string[], warned?: Expected[]]> = [
  ['manifest/alias-bomb.yaml', [['input_too_large', 1, 1]], ['alias']],
  ['manifest/complex-key.yaml', [['wrong_type', 3, 5]], ['plain text']],
  ['manifest/deep-nesting.yaml', [['input_too_large', 3, 106]], ['deeper than 100 levels']],
  ['manifest/duplicate-key.yaml', [['yaml_syntax', 4, 1]], ['unique']],
  ['manifest/empty.yaml', [['wrong_type', 1, 1]], ['empty file', 'wave init']],
  ['manifest/env-unset.yaml', [['env_unset', 4, 13]], ['${WAVE_FIXTURE_UNSET_BINARY}', '${WAVE_FIXTURE_UNSET_BINARY:-value}']],
  [
    'manifest/fallback-unknown.yaml',
    [
      ['unknown_adapter', 8, 25],
      ['unknown_adapter', 11, 14],
      ['unknown_adapter', 12, 5],
      ['unknown_adapter', 14, 12],
    ],
    ['Did you mean `gemini`?'],
  ],
  ['manifest/is-a-pipeline.yaml', [['wrong_type', 1, 7]], ['this file is a pipeline']],
  ['manifest/missing-kind.yaml', [['missing_field', 2, 1]], ['Add `kind: WaveManifest`']],
  ['manifest/multiple-documents.yaml', [['yaml_syntax', 4, 1]], ['more than one YAML document']],
  ['manifest/not-a-mapping.yaml', [['wrong_type', 1, 1]], ['not a list']],
  ['manifest/prompt-file-missing.yaml', [['file_not_found', 7, 25]], ['personas/navigator.md', 'relative to the folder of wave.yaml']],
  [
    'manifest/sandbox-backend.yaml',
    [
      ['wrong_type', 4, 14],
      ['wrong_type', 5, 22],
    ],
    ['Did you mean `docker`?', '`none`, `docker`, `bubblewrap`', 'must be a list'],
  ],
  [
    'manifest/sandbox-allowlist.yaml',
    [
      ['manifest_invalid', 8, 34],
      ['manifest_invalid', 12, 43],
      ['manifest_invalid', 12, 69],
    ],
    ['"api.example.com:99999"', 'it has a scheme', "'*' may only stand", 'like api.example.com, *.example.com:443'],
  ],
  ['manifest/tab-indent.yaml', [['yaml_syntax', 3, 1]], ['tabs']],
  [
    'manifest/unknown-adapter.yaml',
    [
      ['unknown_adapter', 7, 14],
      ['unknown_adapter', 9, 14],
    ],
    ['Did you mean `claude`?', 'Declared adapters: `claude`'],
  ],
  ['manifest/unknown-top-key.yaml', [['unknown_key', 4, 1]], ['unknown key `adaptors`', 'Did you mean `adapters`?']],
  [
    'manifest/unsupported-features.yaml',
    [
      ['not_supported', 2, 1],
      ['not_supported', 4, 1],
      ['not_supported', 13, 5],
      ['not_supported', 18, 5],
      ['not_supported', 29, 3],
    ],
    [
      '`ontology`',
      '`hooks`',
      '`server`',
      'adapter `hooks_template`',
      'persona `hooks`',
      '`runtime.relay`',
      '`runtime.audit`',
      '`runtime.meta_pipeline`',
      '`runtime.routing`',
      '`runtime.routing.auto_route: true` (model routing',
      '`runtime.circuit_breaker`',
      'docs/pipelines.md',
      'is ignored: nothing in a run here uses it',
    ],
    [
      ['not_supported', 6, 1],
      ['not_supported', 21, 3],
      ['not_supported', 23, 3],
      ['not_supported', 25, 3],
      ['not_supported', 27, 3],
      ['not_supported', 28, 17],
    ],
  ],
  ['manifest/wrong-kind-value.yaml', [['wrong_type', 1, 7]], ['Did you mean `WaveManifest`?']],
  [
    'manifest/wrong-types.yaml',
    [
      ['wrong_type', 4, 13],
      ['wrong_type', 5, 15],
      ['wrong_type', 7, 20],
      ['wrong_type', 8, 18],
      ['wrong_type', 10, 27],
    ],
    ['must be text, not a list', 'must be true or false', 'duration such as 30s', 'greater than 0'],
  ],
  [
    'manifest/yaml-syntax-several.yaml',
    [
      ['yaml_syntax', 3, 1],
      ['yaml_syntax', 5, 13],
    ],
  ],
  ['manifest/yaml-syntax.yaml', [['yaml_syntax', 3, 9]], ['never closed']],
  ['pipeline/cycle.yaml', [['dag_cycle', 6, 20]], ['a → c → b → a']],
  ['pipeline/duplicate-step.yaml', [['duplicate_step', 9, 9]], ['already used by the step at line 5']],
  ['pipeline/empty-steps.yaml', [['wrong_type', 4, 8]], ['at least 1 item']],
  // A pipeline's ${VAR} is its shell's, never expanded when loading: the command keeps it; a number field cannot be one.
  ['pipeline/env-unset.yaml', [['wrong_type', 9, 22]], ['must be a number, not "${WAVE_FIXTURE_UNSET_MINUTES}"']],
  ['pipeline/exec-both-sources.yaml', [['conflicting_fields', 9, 7]], ['both `source` and `source_path`']],
  ['pipeline/exec-no-source.yaml', [['missing_field', 8, 7]], ['needs `source` or `source_path`']],
  [
    'pipeline/files-missing.yaml',
    [
      ['file_not_found', 9, 21],
      ['file_not_found', 12, 20],
      ['file_not_found', 18, 22],
    ],
    ['mounts `src/does-not-exist`', 'prompts/missing.md', 'schemas/missing.schema.json'],
  ],
  [
    'pipeline/inject-not-dependency.yaml',
    [
      ['unknown_dependency', 14, 19],
      ['unknown_dependency', 15, 19],
    ],
    ['Add `map` to the dependencies of `review`', 'not a step of this pipeline'],
  ],
  ['pipeline/inject-unknown-artifact.yaml', [['unknown_artifact', 15, 34]], ['Did you mean `map`?']],
  [
    'pipeline/many-problems.yaml',
    [
      ['unknown_key', 4, 3],
      ['unknown_persona', 7, 14],
      ['unknown_dependency', 11, 20],
      ['not_supported', 12, 5],
      ['wrong_type', 13, 22],
    ],
    ['Did you mean `navigator`?', 'Did you mean `map`?', '`validation`'],
  ],
  [
    'pipeline/missing-exec-and-id.yaml',
    [
      ['missing_field', 5, 5],
      ['missing_field', 5, 5],
      ['missing_field', 6, 5],
    ],
    ['`id` is required', 'has neither `exec` (a prompt or command) nor `pipeline`'],
  ],
  ['pipeline/missing-steps.yaml', [['missing_field', 1, 1]], ['`steps` is required']],
  ['pipeline/prompt-without-persona.yaml', [['missing_field', 5, 5]], ['neither `persona` nor `adapter`', '`navigator`']],
  [
    'pipeline/schema-invalid.yaml',
    [
      ['pipeline_invalid', 8, 54],
      ['pipeline_invalid', 17, 32],
      ['pipeline_invalid', 19, 19],
      ['pipeline_invalid', 21, 24],
      ['missing_field', 24, 14],
    ],
    [
      'step `inline` contract 1',
      '`type` must be equal to one of the allowed values',
      '`properties.verdict.type`',
      'is not JSON',
      'schema_path `schemas/not-a-schema.json`',
      '`required` must be array',
      'step `none` extract needs `schema` or `schema_path`',
    ],
  ],
  ['pipeline/self-cycle.yaml', [['dag_cycle', 8, 23]], ['loop → loop']],
  ['pipeline/unknown-adapter.yaml', [['unknown_adapter', 6, 14]], ['Did you mean `shell`?']],
  [
    'pipeline/unknown-dependency.yaml',
    [
      ['unknown_dependency', 8, 20],
      ['unknown_dependency', 8, 27],
    ],
    ['Did you mean `build`?', 'Steps of this pipeline: `build`, `test`'],
  ],
  [
    'pipeline/unknown-key-typo.yaml',
    [
      ['unknown_key', 10, 5],
      ['unknown_key', 11, 29],
    ],
    ['Did you mean `dependencies`?', 'Did you mean `source_path`?'],
  ],
  [
    'pipeline/unknown-persona.yaml',
    [
      ['unknown_persona', 6, 14],
      ['unknown_persona', 9, 14],
    ],
    ['Did you mean `navigator`?', 'Declared personas: `navigator`, `reviewer`, `shell`'],
  ],
  [
    'pipeline/unsupported-nested.yaml',
    [
      ['not_supported', 12, 7],
      ['not_supported', 14, 13],
      ['not_supported', 18, 17],
      ['not_supported', 27, 15],
      ['not_supported', 31, 19],
    ],
    [
      '`workspace.ref`',
      '`exec.type: slash_command`',
      '`memory.strategy: relay`',
      '`handover.compaction`',
      '`handover.on_review_fail`',
      '`handover.target_step`',
      'contract type `typescript_interface`',
      'contract type `event_contains`',
    ],
    [
      ['not_supported', 23, 7],
      ['not_supported', 24, 7],
      ['not_supported', 25, 7],
    ],
  ],
  [
    'pipeline/unsupported-step-keys.yaml',
    [
      ['not_supported', 8, 57],
      ['not_supported', 23, 5],
    ],
    ['`strategy.stacked` (', '`validation` (', '`contexts` ('],
    [['not_supported', 27, 5]],
  ],
  ['pipeline/unsupported-top-level.yaml', [['not_supported', 14, 3]], ['`chat_context`', '`input.label_filter`'], [['not_supported', 7, 1]]],
  [
    'pipeline/wrong-shapes.yaml',
    [
      ['wrong_type', 2, 11],
      ['wrong_type', 4, 3],
    ],
    ['must be a mapping', 'must be a list'],
  ],
  [
    'pipeline/wrong-values.yaml',
    [
      ['wrong_type', 4, 12],
      ['wrong_type', 6, 9],
      ['wrong_type', 8, 22],
      ['wrong_type', 9, 15],
      ['wrong_type', 11, 13],
      ['wrong_type', 14, 16],
      ['wrong_type', 15, 19],
      ['wrong_type', 16, 21],
      ['missing_field', 19, 9],
      ['wrong_type', 20, 21],
      ['wrong_type', 21, 20],
    ],
    ['Did you mean `prompt`?', 'Did you mean `exponential`?', '`fail`, `warn`, `continue`, `skip`, `retry`', 'use letters, digits', 'at most 1'],
  ],
  ['pipeline/yaml-syntax.yaml', [['yaml_syntax', 7, 3]]],
  // A plain value wrapped onto a line holding `: `: the parser complains on both lines; it is one mistake.
  ['pipeline/yaml-wrapped-colon.yaml', [['yaml_syntax', 7, 18]], ['Nested mappings are not allowed in compact mappings', 'Quote a value']],
];

let base: ManifestView;
let baseManifest: Located<Manifest>;
beforeAll(async () => {
  base = manifestView(await readManifest(join(FIXTURES, 'base', 'wave.yaml'), {}));
  baseManifest = await loadManifest(join(FIXTURES, 'base', 'wave.yaml'), {});
});

describe('the broken-input corpus', () => {
  it('has at least 30 cases, and the table covers every file in it', () => {
    const files = ['manifest', 'pipeline'].flatMap((kind) => readdirSync(join(BROKEN, kind)).map((f) => `${kind}/${f}`));
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(CORPUS.map(([file]) => file).sort()).toEqual(files.sort());
  });

  it.each(CORPUS)('%s', async (name, problems, says = [], warned = []) => {
    const file = join(BROKEN, name);
    // An empty environment: every ${VAR} without a default is unset, wherever the test runs.
    const read = name.startsWith('manifest/') ? await readManifest(file, {}) : await readPipeline(file, base, {});
    const report = [...read.errors, ...read.warnings].map(formatError).join('\n');
    expect(
      read.errors.map((e) => [e.code, e.location?.line, e.location?.column]),
      report,
    ).toEqual(problems);
    expect(
      read.warnings.map((e) => [e.code, e.location?.line, e.location?.column]),
      report,
    ).toEqual(warned);
    for (const error of read.errors) {
      expect(error.location?.file).toBe(file);
      expect(Object.keys(ERROR_CODES)).toContain(error.code);
      expect(error.hint, formatError(error)).toBeTruthy();
    }
    for (const words of says) expect(report).toContain(words);
    // The strict loaders throw the same problems, all at once.
    const strict = name.startsWith('manifest/') ? loadManifest(file, {}) : loadPipeline(file, baseManifest, {});
    const thrown = await strict.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(WaveErrors);
    expect((thrown as WaveErrors).errors.map((e) => e.code)).toEqual(problems.map(([code]) => code));
  });
});
