/** Wave's outcome types (internal/pipeline/types.go, validOutcomeTypes): links, and files a step produced. */
export const OUTCOME_TYPES = ['pr', 'issue', 'url', 'deployment', 'file', 'artifact'] as const;
export type OutcomeType = (typeof OUTCOME_TYPES)[number];

/** The outcome types whose value is read from JSON at a `json_path`; `file` and `artifact` are the file itself. */
export const OUTCOME_TYPES_FROM_JSON: ReadonlySet<OutcomeType> = new Set(['pr', 'issue', 'url', 'deployment']);

/** Whether an outcome of this type is a file (its value a path), not a value read from JSON. */
export function isFileOutcome(type: OutcomeType): boolean {
  return !OUTCOME_TYPES_FROM_JSON.has(type);
}

/** One outcome a step yielded (Wave's OutcomeDef, extracted once the step succeeded). */
export interface Outcome {
  type: OutcomeType;
  /** The outcome's `label` (Wave: the type when none is given), numbered or named per item for a `[*]` path. */
  label: string;
  /** The link, or for `file` and `artifact` the file's absolute path. */
  value: string;
  /** The outcome's `extract_from`, relative to the step's workspace. */
  source: string;
  jsonPath?: string;
}

/** A named pipeline output (Wave's pipeline_outputs) as the run resolved it. */
export interface RunOutput {
  step: string;
  artifact: string;
  field?: string;
  /** Its declared I/O type (`string` when none). */
  type: string;
  /** The artifact's stored copy, relative to the run folder. */
  path: string;
  /** The value: the artifact's text, or the field's; absent when too large, not text, or a folder (see the run's warnings). */
  value?: string;
}
