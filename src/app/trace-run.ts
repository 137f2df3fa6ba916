import { join } from 'node:path';
import type { EventBus, RunEvent } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import type { Redactor } from '../redact.js';
import { cachedValueRedactor } from '../state/redact-values.js';
import { readEventsFile } from '../state/events-file.js';
import { EVENTS_FILE, type RunStore } from '../state/run-store.js';
import { traceSettingsOf } from '../trace/gen-ai-attributes.js';
import { LiveTrace, TRACE_FILE } from '../trace/live-trace.js';
import { otlpDestinationOf } from '../trace/otlp-destination.js';
import { runTreeEvents } from '../trace/run-tree-events.js';
import type { AgentTraceTarget } from '../trace/agent-trace.js';
import { recordedTraceParent } from '../trace/recorded-trace-parent.js';
import { parseTraceparent, traceIdOfRun } from '../trace/trace-ids.js';
import type { TextWriter } from './text-writer.js';

/** What a top-level run's trace takes and gives. */
export interface RunTraceParts {
  /** The run's bus: its own events are folded as they go out (redacted here). */
  bus: EventBus;
  redactor: Redactor;
  err: TextWriter;
  /** What shows the run's events: the trace's show passes them on, and takes its child runs' (already hidden by their redactors). */
  show?: (event: RunEvent) => void;
  /** One job of a compiled workflow (a named run): its spans are folded by the job that assembles the run, into one trace. */
  compiledJob?: boolean;
}

/** A top-level run's trace while it runs. */
export interface RunTraceSink {
  /** What child runs show their events through: the run's own show, then the trace (hidden by this run's redactor too). */
  show: (event: RunEvent) => void;
  /** Writes and sends the last spans, waiting for the collector at most the flush timeout. */
  close(): Promise<void>;
  /** Set when spans go to a collector: the trace the run's agents report their own spans into. */
  agents?: AgentTraceTarget;
}

/**
 * The trace of a run started by a person, a program or the Action (a child run's spans are in it): written to the run
 * folder's otel.jsonl, and sent live where runtime.telemetry.otlp or the OTEL_EXPORTER_OTLP_* variables say. The
 * process's TRACEPARENT, when it has one, is the run's parent.
 */
export function traceRun(plan: Plan, store: RunStore, parts: RunTraceParts, env: NodeJS.ProcessEnv = process.env): RunTraceSink {
  const { redactor, err } = parts;
  const runId = store.record.id;
  const telemetry = plan.runtime.telemetry;
  const file = join(store.dir, TRACE_FILE);
  // A resumed run stays in the trace its first drive joined, even when this drive's environment names none.
  const parent = parseTraceparent(env.TRACEPARENT) ?? recordedTraceParent(file, runId);
  const destination = otlpDestinationOf(env, telemetry?.otlp);
  const settings = traceSettingsOf(env, telemetry?.captureContent);
  const agents = destination ? { agents: { traceId: parent?.traceId ?? traceIdOfRun(runId), destination } } : {};
  // The trace ids derive from the run id every job shares, so the agents' spans of each job land in the one trace.
  if (parts.compiledJob) return { show: (event) => parts.show?.(event), close: async () => undefined, ...agents };
  // A resumed run's earlier drives are folded first, so its sessions and spans go on where they were.
  const hasChildren = Object.values(store.record.steps).some((step) => (step.children?.length ?? 0) > 0);
  const earlier = hasChildren ? runTreeEvents(plan.runtime.runsRoot, runId) : store.readEvents();
  // One redactor for every event the trace folds: the ids, paths and names each event repeats are redacted once.
  const redacted = cachedValueRedactor(redactor);
  const trace = new LiveTrace({
    ...settings,
    ...(parent ? { parent } : {}),
    file,
    ...(destination ? { destination } : {}),
    earlier,
    creationOf: (childId) => {
      const created = readEventsFile(join(plan.runtime.runsRoot, childId, EVENTS_FILE)).find((event) => event.type === 'run_created');
      return created && redacted(created);
    },
    warn: (message) => err.write(`warning: ${redactor.redact(message)}; the trace is kept in ${join(store.dir, TRACE_FILE)}\n`),
  });
  const unsubscribe = parts.bus.subscribe((event) => {
    if (event.runId === runId) trace.handle(redacted(event));
  });
  return {
    show: (event) => {
      parts.show?.(event);
      if (event.runId !== runId) trace.handle(redacted(event));
    },
    close: async () => {
      unsubscribe();
      await trace.close();
    },
    ...agents,
  };
}
