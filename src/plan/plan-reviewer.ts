import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { durationMs } from '../config/schema/common-schema.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Contract } from '../config/schema/pipeline-schema.js';
import type { PlannedReviewer } from '../contracts/types.js';
import { isInside } from '../core/inside-path.js';
import { WaveError } from '../core/errors/errors.js';
import { resolveAdapter, resolvePersona } from './resolve-step.js';

/** How long a review may run when its contract names no timeout (Wave's 120 s). */
export const DEFAULT_REVIEW_TIMEOUT_MS = 120_000;

/** An agent_review's reviewer: its persona and adapter resolved, the criteria file read from the project root. */
export function planReviewer(contract: Contract, manifest: Manifest, projectRoot: string, where: string): PlannedReviewer {
  // The pipeline reader reports both at their line (src/config/checks/review-checks.ts); these guard a plan built without it.
  if (!contract.persona) throw new WaveError('missing_field', `${where} needs \`persona\`: the reviewer`, { hint: 'Name a persona of the manifest as `persona`.' });
  if (!contract.criteria_path) throw new WaveError('missing_field', `${where} needs \`criteria_path\``, { hint: 'Name the file of review criteria as `criteria_path`.' });
  const file = resolve(projectRoot, contract.criteria_path);
  if (!isInside(projectRoot, file, false)) {
    throw new WaveError('pipeline_invalid', `${where}: criteria_path \`${contract.criteria_path}\` is outside the project`, {
      hint: 'Give a path inside the project, relative to its root.',
    });
  }
  let criteria: string;
  try {
    criteria = readFileSync(file, 'utf8');
  } catch (error) {
    throw new WaveError('file_not_found', `${where}: the criteria file \`${contract.criteria_path}\` could not be read: ${(error as Error).message}`, {
      hint: 'Paths are relative to the project root, the folder of wave.yaml.',
    });
  }
  const persona = resolvePersona(manifest, projectRoot, contract.persona);
  const declared = manifest.personas?.[contract.persona];
  const model = contract.model ?? declared?.model;
  return {
    persona,
    adapter: resolveAdapter(manifest, declared!.adapter),
    ...(model !== undefined ? { model } : {}),
    criteria,
    timeoutMs: contract.timeout !== undefined ? durationMs(contract.timeout) : DEFAULT_REVIEW_TIMEOUT_MS,
  };
}
