import { createHash } from 'node:crypto';

/** A span in another trace or process that a run's spans hang under or link to: hex ids as W3C trace context has them. */
export interface SpanContextIds {
  traceId: string;
  spanId: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZERO = /^0+$/;

/** The first `bytes` bytes of sha256(text), in hex: ids anyone can compute again from the same names. */
function hashId(text: string, bytes: number): string {
  return createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, bytes * 2);
}

/** The trace id of a run started with no parent trace: derived from its id, so `wave trace` later gives the same one. */
export function traceIdOfRun(runId: string): string {
  return hashId(`wave-trace/${runId}`, 16);
}

/** The span of a run's `session`-th drive (1: its start; 2, 3, …: each `wave resume`). */
export function runSpanId(runId: string, session: number): string {
  return hashId(session === 1 ? `${runId}` : `${runId}/session/${session}`, 8);
}

/** The span of a step's `visit`-th run within a session of its run. */
export function stepSpanId(runId: string, stepId: string, visit: number, session: number): string {
  return hashId(`${runId}/${stepId}/visit/${visit}/session/${session}`, 8);
}

/** The span of an attempt: known before the attempt starts, so its TRACEPARENT can be handed to the agent it runs. */
export function attemptSpanId(runId: string, stepId: string, attempt: number): string {
  return hashId(`${runId}/${stepId}/${attempt}`, 8);
}

/** The span of the `index`-th tool call, or model request, recorded for an attempt. */
export function callSpanId(runId: string, stepId: string, attempt: number, call: { kind: 'tool' | 'model'; index: number }): string {
  return hashId(`${runId}/${stepId}/${attempt}/${call.kind}/${call.index}`, 8);
}

/** A W3C `traceparent` header value (version 00) as ids; undefined when it is not one. */
export function parseTraceparent(text: string | undefined): SpanContextIds | undefined {
  const match = TRACEPARENT.exec(text?.trim().toLowerCase() ?? '');
  if (!match || ZERO.test(match[1]!) || ZERO.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]! };
}
