import { recoverJson } from './json-recovery.js';
import { schemaErrors } from '../json-schema/schema-validator.js';
import type { CheckResult, ContractTarget } from './types.js';

/** Validates the target as JSON against the schema, recovering JSON from prose, fences and trailing commas first. */
export function checkJsonSchema(schema: Record<string, unknown>, target: ContractTarget): CheckResult {
  if (target.text === undefined) return { passed: false, errors: [`${target.label} does not exist`] };
  let parseError: string | undefined;
  try {
    const value: unknown = JSON.parse(target.text);
    const errors = schemaErrors(schema, value);
    if (!errors.length) return { passed: true, errors: [] };
    return { passed: false, errors };
  } catch (error) {
    parseError = (error as Error).message;
  }
  const recovered = recoverJson(target.text);
  if (!recovered) return { passed: false, errors: [`${target.label} is not JSON and holds no JSON block: ${parseError}`] };
  const errors = schemaErrors(schema, recovered.value);
  if (errors.length) return { passed: false, errors };
  return { passed: true, errors: [], recovered: recovered.text };
}
