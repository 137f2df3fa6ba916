import { readFile, stat } from 'node:fs/promises';
import { schemaErrors } from '../../json-schema/schema-validator.js';
import { WaveError } from '../../core/errors/errors.js';
import type { PlannedInjection } from '../../plan/plan-types.js';

/**
 * Checks injected artifacts before the step runs, as Wave does: `type: json` must parse, and one with a
 * `schema_path` must match that JSON Schema. A failure is contract_failed naming the artifact and its step.
 */
export async function checkInjectedArtifacts(refs: readonly PlannedInjection[], placed: Readonly<Record<string, string>>): Promise<void> {
  for (const ref of refs) {
    const path = placed[ref.as ?? ref.artifact];
    const wantsJson = ref.type?.toLowerCase() === 'json' || ref.schemaObject !== undefined;
    // An optional artifact that was absent is not placed; a folder has no JSON to check.
    if (!wantsJson || path === undefined || (await stat(path)).isDirectory()) continue;
    const producer = ref.pipeline !== undefined ? `pipeline \`${ref.pipeline}\`` : `step \`${ref.step}\``;
    const what = `injected artifact \`${ref.artifact}\` of ${producer}`;
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new WaveError('contract_failed', `${what} is not valid JSON: ${(error as Error).message}`, {
        hint: `Make ${producer} write JSON to \`${ref.artifact}\` (a json_schema contract on it checks that), or drop \`type: json\` from the injection.`,
      });
    }
    const errors = ref.schemaObject ? schemaErrors(ref.schemaObject, value) : [];
    if (errors.length) {
      throw new WaveError('contract_failed', `${what} does not match ${ref.schema_path}: ${errors.join('; ')}`, {
        hint: `Fix the output of ${producer}, or the schema at ${ref.schema_path}.`,
      });
    }
  }
}
