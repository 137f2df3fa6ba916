import { join } from 'node:path';
import type { RunEvent } from '../events.js';
import type { Plan } from '../plan/plan-types.js';
import type { Redactor } from '../redact.js';
import { redactValues } from '../state/redact-values.js';
import { readEventsFile } from '../state/events-file.js';
import { EVENTS_FILE, type RunStore } from '../state/run-store.js';
import { traceSettingsOf } from '../trace/gen-ai-attributes.js';
import { LiveTrace, TRACE_FILE } from '../trace/live-trace.js';
import { otlpDestinationOf } from '../trace/otlp-destination.js';
import { runTreeEvents } from '../trace/run-tree-events.js';
import { parseTraceparent } from '../trace/trace-ids.js';
import type { TextWriter } from './text-writer.js';

/** What a top-level run's trace takes: its events (redacted here) and, at the end, its close. */
export interface RunTraceSink {
  /** One event of the run or a child run (a child's already hidden by the child's redactor). */
  handle(event: RunEvent): void;
  /** Writes and sends the last spans, waiting for the collector at most the flush timeout. */
  close(): Promise<void>;
}

/**
 * The trace of a run started by a person, a program or the Action (a child run's spans are in it): written to the run
 * folder's otel.jsonl, and sent live where runtime.telemetry.otlp or the OTEL_EXPORTER_OTLP_* variables say. The
 * process's TRACEPARENT, when it has one, is the run's parent.
 */
export function traceRun(plan: Plan, store: RunStore, redactor: Redactor, err: TextWriter, env: NodeJS.ProcessEnv = process.env): RunTraceSink {
  const telemetry = plan.runtime.telemetry;
  const parent = parseTraceparent(env.TRACEPARENT);
  const destination = otlpDestinationOf(env, telemetry?.otlp);
  // A resumed run's earlier drives are folded first, so its sessions and spans go on where they were.
  const hasChildren = Object.values(store.record.steps).some((step) => (step.children?.length ?? 0) > 0);
  const earlier = hasChildren ? runTreeEvents(plan.runtime.runsRoot, store.record.id) : readEventsFile(join(store.dir, EVENTS_FILE));
  const trace = new LiveTrace({
    ...traceSettingsOf(env, telemetry?.captureContent),
    ...(parent ? { parent } : {}),
    file: join(store.dir, TRACE_FILE),
    ...(destination ? { destination } : {}),
    earlier,
    warn: (message) => err.write(`warning: ${redactor.redact(message)}; the trace is kept in ${join(store.dir, TRACE_FILE)}\n`),
  });
  return { handle: (event) => trace.handle(redactValues(event, redactor)), close: () => trace.close() };
}
