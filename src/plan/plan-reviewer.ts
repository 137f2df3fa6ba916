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

/**
 * An agent_review's reviewer: its persona and adapter resolved, its criteria the file read from the project root and
 * the `criteria` listed inline (Wave reads only the file; its own pipelines list criteria inline and expect them read).
 */
export function planReviewer(contract: Contract, manifest: Manifest, projectRoot: string, where: string): PlannedReviewer {
  // The pipeline reader reports both at their line (src/config/checks/review-checks.ts); these guard a plan built without it.
  if (!contract.persona) throw new WaveError('missing_field', `${where} needs \`persona\`: the reviewer`, { hint: 'Name a persona of the manifest as `persona`.' });
  const listed = (contract.criteria ?? []).map((line) => `- ${line}`).join('\n');
  if (!contract.criteria_path && !listed) {
    throw new WaveError('missing_field', `${where} needs \`criteria_path\` or \`criteria\``, {
      hint: 'Name the file of review criteria as `criteria_path`, or list them as `criteria`.',
    });
  }
  const criteria = [contract.criteria_path ? readCriteria(projectRoot, contract.criteria_path, where) : '', listed].filter(Boolean).join('\n\n');
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

/** The criteria file, read from the project root, never from outside it. */
function readCriteria(projectRoot: string, path: string, where: string): string {
  const file = resolve(projectRoot, path);
  if (!isInside(projectRoot, file, false)) {
    throw new WaveError('pipeline_invalid', `${where}: criteria_path \`${path}\` is outside the project`, { hint: 'Give a path inside the project, relative to its root.' });
  }
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new WaveError('file_not_found', `${where}: the criteria file \`${path}\` could not be read: ${(error as Error).message}`, {
      hint: 'Paths are relative to the project root, the folder of wave.yaml.',
    });
  }
}
