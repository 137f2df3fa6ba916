import type { Failure } from '../../core/errors/failure.js';
import { recoverJson } from '../../contracts/json-recovery.js';
import { schemaErrors } from '../../json-schema/schema-validator.js';
import type { AskModel } from '../../contracts/types.js';
import type { PlannedExtract } from '../../plan/plan-types.js';

/** Times the extract model is asked: once, then once more with the errors of its first answer. */
export const EXTRACT_MODEL_TRIES = 2;
/** Characters of raw output the extract model sees. */
const RAW_CHARS = 60_000;

export type ExtractOutcome = { ok: true; json: string; how: string } | { ok: false; failure: Failure };

/** The prompt asking a model to turn raw output into JSON matching the schema. */
export function extractPrompt(schema: Record<string, unknown>, raw: string, previous?: { answer: string; errors: string[] }): string {
  return [
    'Turn the text below into JSON that is valid against this JSON Schema. Use only facts from the text.',
    'Answer with the JSON only: no prose, no markdown fence.',
    '',
    'JSON Schema:',
    JSON.stringify(schema, null, 2),
    '',
    'Text:',
    '<<<TEXT',
    raw.slice(0, RAW_CHARS),
    'TEXT>>>',
    ...(previous
      ? ['', 'Your previous answer was:', previous.answer.slice(0, 4000), '', 'It failed validation:', ...previous.errors.map((e) => `- ${e}`), 'Correct these problems.']
      : []),
  ].join('\n');
}

/** The problems of a text as JSON for the schema: none means it passes. */
function validate(schema: Record<string, unknown>, text: string): { json?: string; how?: string; errors: string[] } {
  const recovered = recoverJson(text);
  if (!recovered) return { errors: ['(root): the text holds no JSON'] };
  const errors = schemaErrors(schema, recovered.value);
  return errors.length ? { errors } : { json: recovered.text, how: recovered.how, errors };
}

/**
 * The extract layer: raw output -> JSON matching the schema. Deterministic recovery first (fences, prose, trailing
 * commas); then the extract model, asked again once with the errors of its answer; then extract_failed.
 */
export async function extractJson(stepId: string, extract: PlannedExtract, raw: string, ask: AskModel): Promise<ExtractOutcome> {
  const direct = validate(extract.schema, raw);
  if (direct.json) return { ok: true, json: direct.json, how: direct.how! };
  let previous: { answer: string; errors: string[] } | undefined;
  let errors = direct.errors;
  for (let i = 0; i < EXTRACT_MODEL_TRIES; i++) {
    const answer = await ask({ adapter: extract.adapter, model: extract.model, prompt: extractPrompt(extract.schema, raw, previous), purpose: 'extract' });
    if (!answer.ok) {
      errors = [answer.message];
      break;
    }
    const checked = validate(extract.schema, answer.text);
    if (checked.json) return { ok: true, json: checked.json, how: `model (try ${i + 1})` };
    errors = checked.errors;
    previous = { answer: answer.text, errors };
  }
  return {
    ok: false,
    failure: {
      class: 'extract_failed',
      message: `the output of step \`${stepId}\` could not be turned into JSON matching its schema: ${errors.join('; ')}`,
      hint: "Make the step answer in the schema's shape, or check the extract adapter and model.",
    },
  };
}
