import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../plan/plan-types.js';
import type { Redactor } from '../redact.js';
import { traceSettingsOf } from '../trace/gen-ai-attributes.js';
import { TRACE_FILE, TRACE_FLUSH_TIMEOUT_MS } from '../trace/live-trace.js';
import { otlpDestinationOf, shownUrl } from '../trace/otlp-destination.js';
import { otlpTraceLines } from '../trace/otlp-json.js';
import { runTreeEvents } from '../trace/run-tree-events.js';
import { sendTrace } from '../trace/send-trace.js';
import { traceOfEvents } from '../trace/trace-of-events.js';
import { parseTraceparent } from '../trace/trace-ids.js';
import type { TextWriter } from './text-writer.js';

/**
 * The trace of a run whose steps ran as the jobs of a compiled workflow: the job that assembles the run folds every
 * job's events into one trace (ids from the run id the jobs share), writes it to the run folder's otel.jsonl and sends
 * it where runtime.telemetry.otlp or the OTEL_EXPORTER_OTLP_* variables say. A trace never fails the run: a problem is a
 * warning.
 */
export async function traceAssembledRun(plan: Plan, runId: string, io: { err: TextWriter; redactor: Redactor }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const warn = (message: string) => io.err.write(`warning: ${io.redactor.redact(message)}\n`);
  const parent = parseTraceparent(env.TRACEPARENT);
  const spans = traceOfEvents(runTreeEvents(plan.runtime.runsRoot, runId), { ...traceSettingsOf(env, plan.runtime.telemetry?.captureContent), ...(parent ? { parent } : {}) });
  const file = join(plan.runtime.runsRoot, runId, TRACE_FILE);
  try {
    writeFileSync(file, otlpTraceLines(spans));
  } catch (error) {
    warn(`could not write the run's trace to ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const destination = otlpDestinationOf(env, plan.runtime.telemetry?.otlp);
  if (!destination) return;
  await sendTrace(spans, destination, TRACE_FLUSH_TIMEOUT_MS).catch((error: unknown) =>
    warn(`could not send the run's trace to ${shownUrl(destination.url)}: ${error instanceof Error ? error.message : String(error)}; it is kept in ${file}`),
  );
}
