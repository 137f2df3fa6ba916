import { isAbsolute, normalize, sep } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { missingFile } from '../load/file-refs.js';
import type { Locator } from '../load/locator.js';
import type { Path } from '../load/value-path.js';
import { didYouMean } from './suggest.js';

/** The keys only an agent_review contract reads. */
const REVIEW_KEYS = ['persona', 'criteria_path', 'context', 'token_budget'] as const;

/** What a review check needs of the pipeline and the manifest. */
export interface ReviewCheckScope {
  /** The step's own persona, which may not review its own work. */
  stepPersona: unknown;
  /** The manifest's personas; absent: unknown, not checked. */
  personas?: readonly string[];
  /** The project root (the folder of wave.yaml): criteria_path is read from there. */
  projectRoot: string;
  locator: Locator;
}

/** True when a relative path leads out of the folder it starts from (`..` at its head once normalised), or is absolute. */
function leavesRoot(path: string): boolean {
  const normalised = normalize(path);
  return isAbsolute(path) || normalised === '..' || normalised.startsWith(`..${sep}`);
}

/** The keys of an agent_review set on a contract of another type: refused, so none is silently ignored. */
function strayReviewKeys(contract: Record<string, unknown>, path: Path, who: string, locator: Locator): WaveError[] {
  return REVIEW_KEYS.filter((key) => contract[key] !== undefined).map(
    (key) =>
      new WaveError('wrong_type', `${who} (${String(contract.type)}) sets \`${key}\`, which only an agent_review contract reads`, {
        location: locator.locateKey([...path, key]),
        hint: 'Remove it, or set `type: agent_review` if the contract is a review.',
      }),
  );
}

/** An agent_review's reviewer and criteria: a declared persona other than the step's, and a criteria file inside the project. */
export function reviewContractErrors(contract: Record<string, unknown>, path: Path, who: string, scope: ReviewCheckScope): WaveError[] {
  const { locator } = scope;
  if (contract.type !== 'agent_review') return strayReviewKeys(contract, path, who, locator);
  const errors: WaveError[] = [];
  const { persona, criteria_path: criteria } = contract;
  if (typeof persona !== 'string') {
    errors.push(
      new WaveError('missing_field', `${who} (agent_review) names no reviewer \`persona\``, {
        location: locator.locate(path),
        hint: "Add `persona: <name>`, a persona of the manifest other than the step's own.",
      }),
    );
  } else if (persona === scope.stepPersona) {
    errors.push(
      new WaveError('wrong_type', `${who} (agent_review) has persona \`${persona}\` review its own work`, {
        location: locator.locate([...path, 'persona']),
        hint: 'Name another persona as the reviewer, so the work is seen by a second pair of eyes.',
      }),
    );
  } else if (scope.personas && !scope.personas.includes(persona)) {
    errors.push(
      new WaveError('unknown_persona', `${who} (agent_review) names reviewer persona \`${persona}\`, which the manifest does not declare`, {
        location: locator.locate([...path, 'persona']),
        hint: didYouMean(persona, scope.personas, 'Declared personas'),
      }),
    );
  }
  const listed = Array.isArray(contract.criteria) && contract.criteria.length > 0;
  if (typeof criteria !== 'string') {
    if (!listed)
      errors.push(
        new WaveError('missing_field', `${who} (agent_review) needs \`criteria_path\` or \`criteria\``, {
          location: locator.locate(path),
          hint: 'Add `criteria_path: <file>` (the review criteria, relative to the project root), or list them as `criteria`.',
        }),
      );
  } else if (leavesRoot(criteria)) {
    errors.push(
      new WaveError('wrong_type', `${who} (agent_review) reads criteria_path \`${criteria}\`, which is outside the project`, {
        location: locator.locate([...path, 'criteria_path']),
        hint: 'Give a path inside the project, relative to its root (the folder of wave.yaml).',
      }),
    );
  } else {
    const missing = missingFile(criteria, scope.projectRoot, `${who} (agent_review) names criteria_path`, locator.locate([...path, 'criteria_path']));
    if (missing) errors.push(missing);
  }
  return errors;
}
