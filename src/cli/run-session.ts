import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultRegistry } from '../adapters/registry.js';
import { EventBus, type RunStatus } from '../events.js';
import type { EventBody, RunContext } from '../engine/run/context.js';
import { recordEgress } from '../engine/run/egress-record.js';
import { executeRun } from '../engine/run/run-pipeline.js';
import { prepareSandbox, type ReadySandbox } from '../sandbox/open-sandbox.js';
import { removeRunWorkspaces } from '../engine/workspace/workspace.js';
import type { Plan } from '../plan/plan-types.js';
import { runSecretValues, shortSecretWarnings } from '../engine/run/run-secrets.js';
import { Redactor } from '../redact.js';
import { createSink, type OutputMode } from '../report/sink.js';
import type { RunSink } from '../report/sink-types.js';
import { redactValues } from '../state/redact-values.js';
import type { RunStore } from '../state/run-store.js';
import { EXIT, STOP_SIGNALS, signalExitCode, type StopSignal } from './exit-codes.js';
import { checkRunRequirements } from './run-requirements.js';
import { readyTokenScopes } from './token-scope-preflight.js';

/** Why the steps were stopped, per signal: Ctrl-C, `wave cancel` or kill, the terminal closing, Ctrl-\ (a core dump would leave the steps running). */
const STOP_REASONS: Record<StopSignal, string> = {
  SIGINT: 'interrupted (Ctrl-C)',
  SIGTERM: 'cancelled',
  SIGHUP: 'cancelled: the terminal closed (SIGHUP)',
  SIGQUIT: 'cancelled (SIGQUIT)',
};

export interface SessionOptions {
  output: OutputMode;
  onFailure: 'halt' | 'continue';
  selected?: ReadonlySet<string>;
  keepWorkspaces: boolean;
  /** The run's redactor (runRedactor), the same one its store writes through. */
  redactor: Redactor;
  /** The checked sandbox backend (prepareSandbox); steps run on the host when absent. */
  sandbox?: ReadySandbox;
  /** More subscribers beside the output mode's sink (the GitHub Action's); they get the same redacted events. */
  sinks?: RunSink[];
  /** A stop signal that came before the session listened (the GitHub Action catches them from its start): the run stops at once. */
  stoppedBy?: StopSignal;
  /** Events of the checks before the run (readyTokenScopes), recorded when it starts. */
  startEvents?: readonly EventBody[];
}

/** The redactor of a run: every value it takes from the environment (run-secrets.ts), their URL-encoded forms, and common token shapes. */
export function runRedactor(plan: Plan, env: NodeJS.ProcessEnv = process.env): Redactor {
  return new Redactor(runSecretValues(plan, env));
}

/** Drives one `wave run` or `wave resume`: sinks, signals, execution, cleanup, summary; returns the exit code. */
export async function driveRun(plan: Plan, store: RunStore, options: SessionOptions): Promise<number> {
  const { redactor } = options;
  const bus = new EventBus();
  const sink = createSink(options.output, { out: process.stdout, stepIds: plan.steps.map((s) => s.id), redactor });
  const unsubscribe = bus.subscribe((event) => sink.handle(event));
  const extraSinks = (options.sinks ?? []).map((extra) => bus.subscribe((event) => extra.handle(redactValues(event, redactor))));
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const interrupt = (signal: StopSignal) => {
    if (controller.signal.aborted) return;
    stoppedBy = signal;
    process.stderr.write(`\n${signal === 'SIGINT' ? 'Interrupted' : 'Cancelled'}: stopping the running steps…\n`);
    controller.abort({ class: 'aborted', message: STOP_REASONS[signal] });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, interrupt);
  if (options.stoppedBy) interrupt(options.stoppedBy);
  let status: RunStatus;
  try {
    const context: RunContext = {
      plan,
      store,
      bus,
      registry: defaultRegistry({ redactor }),
      parentEnv: process.env,
      sandbox: options.sandbox?.open((record) => recordEgress(context, record)),
    };
    try {
      status = await executeRun(context, { onFailure: options.onFailure, selected: options.selected, signal: controller.signal, startEvents: options.startEvents });
    } finally {
      await context.sandbox?.close();
    }
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, interrupt);
    unsubscribe();
    for (const detach of extraSinks) detach();
    sink.close();
    for (const extra of options.sinks ?? []) extra.close();
  }
  if (status === 'completed' && !options.keepWorkspaces) {
    await removeRunWorkspaces({ workspaceRoot: plan.runtime.workspaceRoot, runId: store.record.id, projectRoot: plan.projectRoot });
  }
  sink.summarize(store.record, store.dir);
  for (const extra of options.sinks ?? []) extra.summarize(store.record, store.dir);
  // Quiet and --json print only what they promise.
  if (options.output === 'auto' || options.output === 'text') process.stderr.write(leftWorkspacesNote(plan, store.record.id));
  if (status === 'cancelled') return stoppedBy ? signalExitCode(stoppedBy) : EXIT.interrupted;
  return status === 'completed' ? EXIT.ok : EXIT.runFailed;
}

/** What a run left in the project (its workspaces, kept for a resume or a look) and how to remove it; empty when nothing is left. */
function leftWorkspacesNote(plan: Plan, runId: string): string {
  const folder = join(plan.runtime.workspaceRoot, runId);
  if (!existsSync(folder)) return '';
  const worktrees = plan.steps.some((step) => step.workspace.type === 'worktree');
  return `The run's workspaces are kept in ${relative(process.cwd(), folder) || '.'}${worktrees ? ' (with its git worktrees)' : ''} for \`wave resume\`, \`wave diff\` and a look; \`wave clean\` removes them${worktrees ? ' and its wave/<run>/… branches' : ''} once you are done.\n`;
}

/** Checks the plan's sandbox backend before a run starts and prints its warnings; throws sandbox_unavailable. */
export async function readySandbox(plan: Plan): Promise<ReadySandbox> {
  const ready = await prepareSandbox(plan.runtime.sandbox);
  for (const warning of ready.warnings) process.stderr.write(`warning: ${warning}\n`);
  return ready;
}

/**
 * The checks before a run is recorded, in order: the sandbox backend, the pipeline's requirements, the forge token's
 * scopes (a missing scope stops the run before anything exists). `afterSandbox` runs between the first two.
 */
export async function preflightRun(plan: Plan, afterSandbox?: () => void): Promise<{ sandbox: ReadySandbox; startEvents: EventBody[] }> {
  process.stderr.write(shortSecretWarnings(plan, process.env).join(''));
  const sandbox = await readySandbox(plan);
  afterSandbox?.();
  await checkRunRequirements(plan);
  return { sandbox, startEvents: await readyTokenScopes(plan) };
}

/** Removes the containers a killed run left behind, when its steps ran in Docker. */
export async function removeOrphanedContainers(plan: Plan, runId: string): Promise<void> {
  if (plan.runtime.sandbox.backend !== 'docker') return;
  const [{ dockerClient }, { removeRunContainers }] = await Promise.all([import('../sandbox/docker-image.js'), import('../sandbox/docker.js')]);
  await removeRunContainers(dockerClient(), runId);
}
