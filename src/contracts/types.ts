import type { ResolvedAdapter } from '../core/resolved-adapter.js';
import type { Contract } from '../config/schema/pipeline-schema.js';

/** Where a contract's target is: a file of the step's workspace (relative to it), or the step's output (its answer). */
export type TargetRef = { kind: 'file'; path: string } | { kind: 'output' };

/** The words for a contract whose target is the step's answer rather than a file. */
export const STEP_OUTPUT_LABEL = "the step's output";

/** A target in words: the file's path, or `the step's output`. */
export function targetLabel(target: TargetRef): string {
  return target.kind === 'file' ? target.path : STEP_OUTPUT_LABEL;
}

/** A contract as the plan holds it: its schema read and its judge resolved. */
export interface PlannedContract extends Contract {
  /** json_schema: the schema object (from `schema` or `schema_path`), read when the plan is built. */
  readonly schemaObject?: Record<string, unknown>;
  /** llm_judge: the adapter that judges. */
  readonly judge?: ResolvedAdapter;
  /** What the contract looks at: a workspace file or the step's answer. */
  readonly target: TargetRef;
}

/** What one check looks at. */
export interface ContractTarget {
  /** The text checked; undefined when the file does not exist. */
  text?: string;
  /** `review.json`, or `the step's output`. */
  label: string;
}

/** A model call (judge, extract): the answer text or why there is none. */
export type AskModel = (request: {
  adapter?: ResolvedAdapter;
  model?: string;
  prompt: string;
  purpose: string;
}) => Promise<{ ok: true; text: string } | { ok: false; message: string }>;

/** What a check needs besides the contract. */
export interface CheckEnvironment {
  target: ContractTarget;
  /** The step's workspace (test_suite's default dir). */
  workspace: string;
  projectRoot: string;
  /** The step's curated environment (test_suite runs with it). */
  env: Record<string, string>;
  signal: AbortSignal;
  ask: AskModel;
}

/** The outcome of one check. */
export interface CheckResult {
  passed: boolean;
  /** Precise problems, one line each (ajv instance paths, the failing command's output). */
  errors: string[];
  /** json_schema: the recovered JSON, to be written back in place of the target. */
  recovered?: string;
  /** test_suite: the command's combined output, kept beside the attempt. */
  output?: string;
}

/** What the step-level policy decided for one contract. */
export type ContractAction = 'pass' | 'fail' | 'warn' | 'continue' | 'skip' | 'retry';

/** A short name for events and run.json: the type and what it checks. */
export function contractLabel(contract: PlannedContract, index: number): string {
  const what = contract.type === 'test_suite' ? contract.command : contract.type === 'llm_judge' ? undefined : targetLabel(contract.target);
  return `${index + 1}:${contract.type}${what ? ` ${what}` : ''}`;
}
