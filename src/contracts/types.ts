import type { ResolvedAdapter } from '../adapters/types.js';
import type { Contract } from '../config/pipeline-schema.js';

/** A contract as the plan holds it: its schema read and its judge resolved. */
export interface PlannedContract extends Contract {
  /** json_schema: the schema object (from `schema` or `schema_path`), read when the plan is built. */
  readonly schemaObject?: Record<string, unknown>;
  /** llm_judge: the adapter that judges. */
  readonly judge?: ResolvedAdapter;
  /** What the contract looks at, in words: a workspace file or the step's answer. */
  readonly targetLabel: string;
}

/** What one check looks at. */
export interface ContractTarget {
  /** The text checked; undefined when the file does not exist. */
  text?: string;
  /** `review.json`, or `the step's output`. */
  label: string;
}

/** A model call (judge, extract): the answer text or why there is none. */
export type AskModel = (request: { adapter?: ResolvedAdapter; model?: string; prompt: string; purpose: string }) => Promise<
  { ok: true; text: string } | { ok: false; message: string }
>;

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
  const what = contract.type === 'test_suite' ? contract.command : contract.type === 'llm_judge' ? undefined : contract.targetLabel;
  return `${index + 1}:${contract.type}${what ? ` ${what}` : ''}`;
}
