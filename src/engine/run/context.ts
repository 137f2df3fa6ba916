import type { AgentTraceTarget } from '../../trace/agent-trace.js';
import type { PipelineArtifacts } from '../artifacts/pipeline-artifacts.js';
import type { AdapterRegistry } from '../../adapters/registry.js';
import type { Clock } from '../../core/clock.js';
import { EVENT_VERSION, type EventBus, type RunEvent } from '../../events.js';
import type { Plan } from '../../plan/plan-types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { AttemptPort } from '../attempt/attempt-port.js';
import type { RunStore } from '../../state/run-store.js';
import type { ChildRuns } from './child-run-port.js';
import type { ReadySkill } from './ready-skills.js';

/** Distributes over the union so each event type keeps its own fields. */
type WithoutBase<E> = E extends unknown ? Omit<E, 'v' | 'ts' | 'runId'> : never;
export type EventBody = WithoutBase<RunEvent>;

/** What every part of one run shares. */
export interface RunContext {
  readonly plan: Plan;
  readonly store: RunStore;
  readonly bus: EventBus;
  readonly registry: AdapterRegistry;
  /** The environment Wave was started with; only curated parts of it reach steps. */
  readonly parentEnv: NodeJS.ProcessEnv;
  /** Where steps' processes run; on the host when absent. */
  readonly sandbox?: Sandbox;
  /** Where every agent or model attempt goes (engine/attempt/attempt-port.ts); the live runners when absent. */
  readonly attempts?: AttemptPort;
  /** The time a step's limits and retry waits are measured in; the system's when absent. */
  readonly clock?: Clock;
  /** How a step starts a child run (engine/run/child-runs.ts); a run without it cannot start one. */
  readonly children?: ChildRuns;
  /** Other pipelines' artifacts its steps may inject (a child run's parent's, and earlier compose stages'); none when absent. */
  readonly pipelineArtifacts?: PipelineArtifacts;
  /** A loop iteration's run: the step references (`{{ <step>.out… }}`, `{{ <step>.output… }}`) its loop's run resolves, for the steps before the loop. */
  readonly enclosing?: (name: string) => string | undefined;
  /** The required skills the preflight found or installed (app/skill-setup.ts): their init commands and sandboxed installs. */
  readonly skills?: readonly ReadySkill[];
  /** Set when the run's spans go to a collector: each agent attempt's CLI reports its own spans under the attempt's. */
  readonly agentTrace?: AgentTraceTarget;
}

/** Stamps an event with the format version, time and run id, records it (the run store folds it into the record), then publishes it. */
export function emit(context: RunContext, body: EventBody, ts = new Date().toISOString()): void {
  const event = { v: EVENT_VERSION, ts, runId: context.store.record.id, ...body } as RunEvent;
  context.store.appendEvent(event);
  context.bus.emit(event);
}
