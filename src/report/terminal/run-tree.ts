import { NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';
import type { RunEvent, RunStatus, StepStatus } from '../../events.js';
import type { ColorName } from '../color.js';

/** One step as the live view shows it. */
export interface StepView {
  status: StepStatus;
  startedAt?: number;
  durationMs?: number;
  attempt: number;
  tokens: TokenUsage;
  costUsd?: number;
  /** The latest tool activity, or what the step is waiting for. */
  activity?: string;
  /** Why a step failed or was skipped. */
  note?: string;
  /** The child runs the step started, in the order it started them. */
  children?: RunTree[];
  /** An iterate step's items: how many, and how many an earlier run completed. */
  items?: { total: number; reused: number };
  /** A loop step's `iteration 2/5`, said before what its iteration's child run does. */
  loop?: string;
}

/** The run as the footer shows it: its clock, and run-wide notes (a budget warning, an unchecked token). */
export interface RunView {
  startedAt?: number;
  durationMs?: number;
  notes?: Segment[];
}

/** A piece of a drawn line, in its colour. */
export interface Segment {
  text: string;
  color?: ColorName;
}

/** A step that has not started yet. */
export function pendingView(): StepView {
  return { status: 'pending', attempt: 0, tokens: { ...NO_TOKENS } };
}

/** A run as the live view draws it: its steps in drawing order, and for a child run, which one it is and how it stands. */
export interface RunTree extends RunView {
  readonly order: string[];
  readonly steps: Map<string, StepView>;
  status: RunStatus;
  /** A child run's id, pipeline and iterate item (0-based); absent for the run the view was made for. */
  runId?: string;
  pipeline?: string;
  item?: number;
}

/** A run whose steps are `stepIds`, all pending. */
export function runTree(stepIds: readonly string[]): RunTree {
  return { order: [...stepIds], steps: new Map(stepIds.map((id) => [id, pendingView()])), status: 'pending' };
}

/** The run's step of this id, added pending at the end when the view did not know it. */
export function stepOf(tree: RunTree, id: string): StepView {
  let step = tree.steps.get(id);
  if (!step) {
    step = pendingView();
    tree.steps.set(id, step);
    tree.order.push(id);
  }
  return step;
}

/** The child run a child_run_started names under its step: the one already there (a resumed child keeps its id), else a new one. */
export function childTreeOf(tree: RunTree, event: Extract<RunEvent, { type: 'child_run_started' }>): RunTree {
  const step = stepOf(tree, event.stepId);
  const children = (step.children ??= []);
  let child = children.find((c) => c.runId === event.childRunId);
  if (!child) {
    child = { ...runTree([]), runId: event.childRunId, pipeline: event.pipeline, ...(event.item !== undefined ? { item: event.item } : {}) };
    children.push(child);
  }
  child.status = 'running';
  return child;
}

/** An iterate step's progress: items finished (an earlier run's included) of all, and how many of them failed or were cancelled. */
export function itemProgress(step: StepView): { finished: number; total: number; failed: number; cancelled: number } | undefined {
  if (!step.items) return undefined;
  const items = (step.children ?? []).filter((child) => child.item !== undefined);
  const count = (status: RunStatus) => items.filter((child) => child.status === status).length;
  const failed = count('failed');
  const cancelled = count('cancelled');
  return { finished: step.items.reused + count('completed') + failed + cancelled, total: step.items.total, failed, cancelled };
}
