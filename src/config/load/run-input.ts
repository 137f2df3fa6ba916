import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import { INPUT_SCHEMA_TYPES, IO_TYPES, inputSchemaTypeProblem, inputTypeProblem, inputTypeShape, type InputSchemaType, type IoType } from '../schema/io-types.js';
import type { Pipeline } from '../schema/pipeline-schema.js';
import { isRecord, type Path } from './value-path.js';
import { describeValue } from './zod-issues.js';

/** How a text fails the pipeline's declared input: the key that declares it, what it must be, and why it is not. */
export interface InputMismatch {
  key: Path;
  /** "an issue_ref", "a JSON integer". */
  label: string;
  /** What such an input is, in full. */
  expected: string;
  why: string;
}

/** Where and why `text` does not fit an `input` block (checked as written, so a raw block works too): input.type first, then input.schema.type. */
export function inputMismatch(input: unknown, text: string): InputMismatch | undefined {
  if (!isRecord(input)) return undefined;
  const type = input.type;
  if (typeof type === 'string' && (IO_TYPES as readonly string[]).includes(type)) {
    const why = inputTypeProblem(type as IoType, text);
    if (why) return { key: ['input', 'type'], label: `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`, expected: inputTypeShape(type as IoType)!, why };
  }
  const schemaType = isRecord(input.schema) ? input.schema.type : undefined;
  if (typeof schemaType === 'string' && (INPUT_SCHEMA_TYPES as readonly string[]).includes(schemaType)) {
    const why = inputSchemaTypeProblem(schemaType as InputSchemaType, text);
    if (why) return { key: ['input', 'schema', 'type'], label: `a JSON ${schemaType}`, expected: `JSON of type ${schemaType}`, why };
  }
  return undefined;
}

/** A loaded pipeline, as far as the input check needs it. */
interface PipelineWithInput {
  value: Pick<Pipeline, 'metadata' | 'input'>;
  locate(path: readonly PropertyKey[]): SourceLocation;
}

/**
 * Refuses a run's input that does not fit the pipeline's declared input (input.type, input.schema.type) before any
 * step runs: input_invalid at the declaring key, the hint giving the expected shape and the pipeline's input.example.
 */
export function checkRunInput(pipeline: PipelineWithInput, text: string): void {
  const input = pipeline.value.input;
  const mismatch = inputMismatch(input, text);
  if (!mismatch) return;
  const name = pipeline.value.metadata.name;
  const message =
    text.trim() === '' ? `pipeline \`${name}\` takes ${mismatch.label} input, and none was given` : `the input ${describeValue(text)} is not ${mismatch.label}: ${mismatch.why}`;
  const example = input?.example ?? (input?.default !== undefined && !inputMismatch(input, input.default) ? input.default : undefined);
  throw new WaveError('input_invalid', message, {
    location: pipeline.locate(mismatch.key),
    hint: `Give ${mismatch.expected}${example !== undefined ? `, e.g. \`${example}\` (the pipeline's input.${input?.example !== undefined ? 'example' : 'default'})` : ''}.`,
  });
}
