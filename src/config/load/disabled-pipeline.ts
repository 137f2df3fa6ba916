import { WaveError } from '../../core/errors/errors.js';
import type { Located } from './load.js';
import type { Pipeline } from '../schema/pipeline-schema.js';

/** Wave's `metadata.disabled: true` switches a pipeline off without deleting it: `wave run` refuses it by name. */
export function refuseDisabledPipeline(pipeline: Located<Pipeline>): void {
  if (pipeline.value.metadata.disabled !== true) return;
  throw new WaveError('pipeline_disabled', `pipeline \`${pipeline.value.metadata.name}\` is disabled (metadata.disabled: true)`, {
    location: pipeline.locate(['metadata', 'disabled']),
    hint: 'Remove `disabled: true` from its metadata (or set it to false) to run it.',
  });
}
