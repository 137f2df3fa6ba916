import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultRegistry } from '../adapters/registry.js';
import { EXIT, STOP_SIGNALS, signalExitCode, type StopSignal } from '../core/errors/exit-codes.js';
import { EventBus, type RunEvent, type RunStatus } from '../events.js';
import type { ChildRuns } from '../engine/run/child-run-port.js';
import { emit, type EventBody, type RunContext } from '../engine/run/context.js';
import { recordEgress } from '../engine/run/egress-record.js';
import { executeRun } from '../engine/run/run-pipeline.js';
import { livePort } from '../engine/attempt/attempt-port.js';
import { simulatePort } from '../engine/attempt/simulate/simulate-port.js';
import { replayPort } from '../engine/attempt/replay/replay-port.js';
import type { ReadySandbox } from '../sandbox/open-sandbox.js';
import type { ReadySkill } from '../engine/run/ready-skills.js';
import { removeRunWorkspaces } from '../engine/workspace/workspace.js';
import { isAttemptStep, type Plan } from '../plan/plan-types.js';
import type { Redactor } from '../redact.js';
import { createSink, type OutputMode } from '../report/sink.js';
import type { RunSink } from '../report/sink-types.js';
import { redactValues } from '../state/redact-values.js';
import type { RunStore } from '../state/run-store.js';
import type { ChildRunBase, SharedRunParts } from './run-request.js';
import { simulateOptionsOf } from './simulate-options.js';
import { replayOptionsOf } from './replay-options.js';
import type { TextWriter } from './text-writer.js';
import { promptAtGates, terminalIo } from './gate-prompt.js';
import { traceRun } from './trace-run.js';

/** Why the steps were stopped, per signal: Ctrl-C, `wave cancel` or kill, the terminal closing, Ctrl-\ (a core dump would leave the steps running). */
const STOP_REASONS: Record<StopSignal, string> = {
  SIGINT: 'interrupted (Ctrl-C)',
  SIGTERM: 'cancelled',
  SIGHUP: 'cancelled: the terminal closed (SIGHUP)',
  SIGQUIT: 'cancelled (SIGQUIT)',
};

/** How driveRun runs a recorded run. */
export interface DriveOptions {
  output: OutputMode;
  onFailure: 'halt' | 'continue';
  selected?: ReadonlySet<string>;
  keepWorkspaces: boolean;
  /** The run's redactor (runRedactor), the same one its store writes through. */
  redactor: Redactor;
  /** The checked sandbox backend (prepareSandbox); steps run on the host when absent. */
  sandbox?: ReadySandbox;
  /** The required skills the preflight set up (app/skill-setup.ts). */
  skills?: readonly ReadySkill[];
  /** More subscribers beside the output mode's sink (the GitHub Action's); they get the same redacted events. */
  sinks?: RunSink[];
  /** A stop signal that came before the run listened (the GitHub Action catches them from its start): the run stops at once. */
  stoppedBy?: StopSignal;
  /** Events of the checks before the run (readyTokenScopes), recorded when it starts. */
  startEvents?: readonly EventBody[];
  /** Where the stop message and the kept-workspaces note go (process.stderr by default). */
  err?: TextWriter;
  /** What a parent run shares instead of this run making its own. */
  shared?: SharedRunParts;
  /** How the run's steps start child runs; they cannot when absent. */
  children?: (base: ChildRunBase) => ChildRuns;
  /** One job of a compiled workflow (`--run-id`): `wave assemble` writes and sends the run's trace. */
  compiledJob?: boolean;
}

/** Drives one recorded run (`wave run`, `wave resume`, the Action): sinks, signals, execution, cleanup, summary; returns the exit code. */
export async function driveRun(plan: Plan, store: RunStore, options: DriveOptions): Promise<number> {
  const { redactor, shared = {} } = options;
  const err = options.err ?? process.stderr;
  const bus = shared.bus ?? new EventBus();
  const runId = store.record.id;
  // A shared bus carries other runs' events too: each subscriber here takes only this run's.
  const onOwnEvents = (listener: (event: RunEvent) => void) =>
    bus.subscribe((event) => {
      if (event.runId === runId) listener(event);
    });
  // A child run prints nothing of its own: its events, hidden by its own redactor, go to what shows its parent's.
  const sink = options.shared ? undefined : await createSink(options.output, { out: process.stdout, stepIds: plan.steps.map((s) => s.id), redactor });
  const baseShow = shared.show ?? (sink ? (event: RunEvent) => sink.handle(event) : undefined);
  // A run nobody nests folds its events and its child runs' (which reach it through show) into one trace.
  const trace = shared.bus ? undefined : traceRun(plan, store, { bus, redactor, err, show: baseShow, compiledJob: options.compiledJob });
  const show = trace?.show ?? baseShow;
  const agentTrace = trace?.agents ?? shared.agentTrace;
  const unsubscribe = onOwnEvents((event) => show?.(shared.show ? redactValues(event, redactor) : event));
  const extraSinks = (options.sinks ?? []).map((extra) => onOwnEvents((event) => extra.handle(redactValues(event, redactor))));
  const stop = listenForStop(err, shared.signal);
  // A run a person started on a terminal asks there at its (and its children's) approval gates.
  const io = sink ? terminalIo() : undefined;
  const stopPrompts = io ? promptAtGates({ ...io, bus, runsRoot: plan.runtime.runsRoot, hold: (held) => sink?.hold?.(held) }) : undefined;
  if (options.stoppedBy) stop.interrupt(options.stoppedBy);
  let status: RunStatus;
  try {
    const sandbox = shared.sandbox ?? options.sandbox?.open((record) => recordEgress(context, record));
    const childBase = {
      plan,
      runId,
      bus,
      sandbox,
      onFailure: options.onFailure,
      keepWorkspaces: options.keepWorkspaces,
      autoApprove: store.record.options.autoApprove ?? false,
      installSkills: store.record.options.installSkills ?? false,
      ...simulateOptionsOf(store.record.options),
      ...replayOptionsOf(store.record.options),
      err,
      emit: (body: EventBody) => emit(context, body),
      depth: shared.depth ?? 0,
      show,
      ...(agentTrace ? { agentTrace } : {}),
    };
    const context: RunContext = {
      plan,
      store,
      bus,
      registry: defaultRegistry({ redactor }),
      parentEnv: process.env,
      sandbox,
      children: options.children?.(childBase),
      pipelineArtifacts: shared.pipelineArtifacts,
      ...(agentTrace ? { agentTrace } : {}),
      ...(shared.enclosing ? { enclosing: shared.enclosing } : {}),
      ...(options.skills?.length ? { skills: options.skills } : {}),
      ...simulatedAttempts(plan, store, (body) => emit(context, body)),
      ...replayedAttempts(store, redactor, (body) => emit(context, body)),
    };
    try {
      status = await executeRun(context, { onFailure: options.onFailure, selected: options.selected, signal: stop.signal, startEvents: options.startEvents });
    } finally {
      // A shared sandbox is the parent's to close.
      if (!shared.sandbox) await context.sandbox?.close();
    }
  } finally {
    stop.release();
    stopPrompts?.();
    unsubscribe();
    for (const detach of extraSinks) detach();
    sink?.close();
    for (const extra of options.sinks ?? []) extra.close();
  }
  await trace?.close();
  if (status === 'completed' && !options.keepWorkspaces) {
    await removeRunWorkspaces({ workspaceRoot: plan.runtime.workspaceRoot, runId, projectRoot: plan.projectRoot });
  }
  sink?.summarize(store.record, store.dir);
  for (const extra of options.sinks ?? []) extra.summarize(store.record, store.dir);
  // Quiet and --json print only what they promise.
  if (sink && (options.output === 'auto' || options.output === 'text')) err.write(leftWorkspacesNote(plan, runId));
  const stoppedBy = stop.stoppedBy();
  if (status === 'cancelled') return stoppedBy ? signalExitCode(stoppedBy) : EXIT.interrupted;
  return status === 'completed' ? EXIT.ok : status === 'rejected' ? EXIT.rejected : EXIT.runFailed;
}

/** A simulated run's attempt port (`wave run --simulate`, kept in its options so a resume is simulated too); none for a live run. */
function simulatedAttempts(plan: Plan, store: RunStore, record: (body: EventBody) => void): Pick<RunContext, 'attempts'> {
  const { simulate, simulateOutputs } = store.record.options;
  if (!simulate) return {};
  const live = livePort((value) => store.redactStored(value));
  return { attempts: simulatePort({ plan, live, emit: record, ...(simulateOutputs !== undefined ? { fixtures: simulateOutputs } : {}) }) };
}

/** A replayed run's attempt port (`wave replay`, kept in its options so a resume keeps replaying); none for another run. */
function replayedAttempts(store: RunStore, redactor: Redactor, record: (body: EventBody) => void): Pick<RunContext, 'attempts'> {
  const { replayOf, replayMode, replaySpeed } = store.record.options;
  if (replayOf === undefined) return {};
  const live = livePort((value) => store.redactStored(value));
  return { attempts: replayPort({ recordedRun: replayOf, mode: replayMode ?? 'strict', speed: replaySpeed ?? Infinity, live, emit: record, redactor }) };
}

/** The run's cancellation: the stop signals, or a parent's AbortSignal when it has one (the parent listens for the signals). */
function listenForStop(err: TextWriter, parentSignal?: AbortSignal) {
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const interrupt = (signal: StopSignal) => {
    if (controller.signal.aborted) return;
    stoppedBy = signal;
    err.write(`\n${signal === 'SIGINT' ? 'Interrupted' : 'Cancelled'}: stopping the running steps…\n`);
    controller.abort({ class: 'aborted', message: STOP_REASONS[signal] });
  };
  const followParent = () => controller.abort(parentSignal?.reason);
  if (parentSignal) {
    parentSignal.addEventListener('abort', followParent, { once: true });
    if (parentSignal.aborted) followParent();
  } else for (const signal of STOP_SIGNALS) process.on(signal, interrupt);
  return {
    signal: controller.signal,
    interrupt,
    stoppedBy: () => stoppedBy,
    release() {
      if (parentSignal) parentSignal.removeEventListener('abort', followParent);
      else for (const signal of STOP_SIGNALS) process.off(signal, interrupt);
    },
  };
}

/** What a run left in the project (its workspaces, kept for a resume or a look) and how to remove it; empty when nothing is left. */
function leftWorkspacesNote(plan: Plan, runId: string): string {
  const folder = join(plan.runtime.workspaceRoot, runId);
  if (!existsSync(folder)) return '';
  const worktrees = plan.steps.some((step) => isAttemptStep(step) && step.workspace.type === 'worktree');
  return `The run's workspaces are kept in ${relative(process.cwd(), folder) || '.'}${worktrees ? ' (with its git worktrees)' : ''} for \`wave resume\`, \`wave diff\` and a look; \`wave clean\` removes them${worktrees ? ' and its wave/<run>/… branches' : ''} once you are done.\n`;
}
