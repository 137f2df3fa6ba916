import type { ResolvedAdapter, ResolvedPersona } from '../core/resolved-adapter.js';
import type { Contract } from '../config/schema/pipeline-schema.js';
import type { ReviewMaterial } from './agent-review/review-context.js';
import type { ReviewVerdict } from './agent-review/review-verdict.js';
import type { StepGit } from './step-git.js';

/** Where a contract's target is: a file of the step's workspace (relative to it), or the step's output (its answer). */
export type TargetRef = { kind: 'file'; path: string } | { kind: 'output' };

/** The words for a contract whose target is the step's answer rather than a file. */
export const STEP_OUTPUT_LABEL = "the step's output";

/** A target in words: the file's path, or `the step's output`. */
export function targetLabel(target: TargetRef): string {
  return target.kind === 'file' ? target.path : STEP_OUTPUT_LABEL;
}

/** An agent_review's reviewer as the plan resolves it: its persona and adapter, the criteria read, its time limit. */
export interface PlannedReviewer {
  readonly persona: ResolvedPersona;
  readonly adapter: ResolvedAdapter;
  /** The contract's `model`, else the persona's (a tier or a model name, resolved on the adapter when asked). */
  readonly model?: string;
  /** The text of criteria_path, read when the plan is built. */
  readonly criteria: string;
  readonly timeoutMs: number;
}

/** A contract as the plan holds it: its schema read and its judge resolved. */
export interface PlannedContract extends Contract {
  /** json_schema: the schema object (from `schema` or `schema_path`), read when the plan is built. */
  readonly schemaObject?: Record<string, unknown>;
  /** llm_judge: the adapter that judges. */
  readonly judge?: ResolvedAdapter;
  /** agent_review: who reviews, against what. */
  readonly reviewer?: PlannedReviewer;
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

/** A model call (judge, extract, review): the answer text and the tokens it took (input and output), or why there is none. */
export type AskModel = (request: {
  adapter?: ResolvedAdapter;
  model?: string;
  prompt: string;
  purpose: string;
  /** A review runs as the reviewer's persona: its system prompt and permissions. */
  persona?: ResolvedPersona;
  /** In place of the step's timeout. */
  timeoutMs?: number;
}) => Promise<{ ok: true; text: string; tokens?: number } | { ok: false; message: string }>;

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
  /** agent_review: the step's git diff and the run's artifacts. */
  review?: ReviewMaterial;
  /** test_diff, test_count_baseline: a worktree step's git, read through Wave's repositories; absent for a plain folder. */
  git?: StepGit;
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
  /** agent_review: what the review came to, for its events. */
  review?: ReviewOutcome;
}

/** How an agent_review ended: a verdict, or why there is none (then `verdict` is absent). */
export interface ReviewOutcome {
  reviewer: string;
  verdict?: ReviewVerdict;
  issues?: number;
  summary?: string;
  /** Why the review failed: the verdict's summary, or what kept the reviewer from giving one. */
  reason?: string;
}

/** What the step-level policy decided for one contract. */
export type ContractAction = 'pass' | 'fail' | 'warn' | 'continue' | 'skip' | 'retry' | 'rework' | 'rejected';

/** A short name for events and run.json: the type and what it checks. */
export function contractLabel(contract: PlannedContract, index: number): string {
  const what =
    contract.type === 'test_suite'
      ? contract.command
      : contract.type === 'llm_judge'
        ? undefined
        : contract.type === 'agent_review'
          ? contract.persona
          : contract.type === 'test_diff' || contract.type === 'test_count_baseline'
            ? contract.base_ref
            : targetLabel(contract.target);
  return `${index + 1}:${contract.type}${what ? ` ${what}` : ''}`;
}
