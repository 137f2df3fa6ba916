import { appendFileSync } from 'node:fs';
import type { RunEvent } from '../events.js';
import { otlpTraceLine, requestChunks, SPANS_PER_REQUEST } from './otlp-json.js';
import type { OtlpDestination } from './otlp-destination.js';
import { OtlpSender } from './otlp-sender.js';
import { TraceFold, type TraceOptions } from './trace-of-events.js';
import type { TraceSpan } from './trace-span.js';

/** The trace file of a run folder: one OTLP/HTTP JSON export request a line. */
export const TRACE_FILE = 'otel.jsonl';

/** How long the end of a run waits for a collector to take the last spans; documented in docs/traces.md. */
export const TRACE_FLUSH_TIMEOUT_MS = 3000;

// Spans wait at most this long (or until a request's worth have ended) before they are written and sent as one request.
const BATCH_INTERVAL_MS = 1000;

/** What a live trace is made with. */
export interface LiveTraceOptions extends TraceOptions {
  /** The otel.jsonl the export requests are appended to. */
  file: string;
  destination?: OtlpDestination;
  /** The run's events recorded before this drive (a resume's): folded so ids and sessions go on, never sent again. */
  earlier?: readonly RunEvent[];
  flushTimeoutMs?: number;
  /** A child run's run_created, which its store writes before the run's bus carries anything of it (its events file's first line). */
  creationOf?: (runId: string) => RunEvent | undefined;
  /** Reports a trace that could not be sent or written; the run goes on. */
  warn: (message: string) => void;
}

/** A run's trace while it runs: events folded into spans, each ended batch appended to otel.jsonl and sent to the collector. */
export class LiveTrace {
  private readonly fold: TraceFold;
  private readonly sender: OtlpSender | undefined;
  private batch: TraceSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writeFailed = false;
  private readonly seenRuns = new Set<string>();
  /** The fold met what it could not fold: the run goes on untraced from there, as a trace never fails a run. */
  private stopped = false;

  constructor(private readonly options: LiveTraceOptions) {
    this.fold = new TraceFold(options);
    this.guarded(() => {
      for (const event of options.earlier ?? []) this.see(event);
    });
    const timeoutMs = options.flushTimeoutMs ?? TRACE_FLUSH_TIMEOUT_MS;
    this.sender = options.destination ? new OtlpSender(options.destination, timeoutMs, options.warn) : undefined;
  }

  /** Folds one (redacted) event of the run or its child runs. */
  handle(event: RunEvent): void {
    this.guarded(() => {
      if (!this.seenRuns.has(event.runId) && event.type !== 'run_created') {
        const created = this.options.creationOf?.(event.runId);
        if (created) this.batch.push(...this.see(created));
      }
      this.batch.push(...this.see(event));
    });
    if (this.batch.length >= SPANS_PER_REQUEST || event.type === 'run_finished') this.flush();
    else if (this.batch.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.flush(), BATCH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** The run ended: what is still open ends, the last batch goes out, and the collector gets at most the flush timeout to take it. */
  async close(): Promise<void> {
    this.guarded(() => this.batch.push(...this.fold.finish()));
    this.flush();
    await this.sender?.drain();
  }

  private guarded(fold: () => void): void {
    if (this.stopped) return;
    try {
      fold();
    } catch (error) {
      this.stopped = true;
      this.options.warn(`the run's trace stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private see(event: RunEvent): TraceSpan[] {
    this.seenRuns.add(event.runId);
    return this.fold.add(event);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0) return;
    const spans = this.batch;
    this.batch = [];
    for (const chunk of requestChunks(spans)) {
      this.write(chunk);
      this.sender?.send(chunk);
    }
  }

  private write(spans: readonly TraceSpan[]): void {
    try {
      appendFileSync(this.options.file, otlpTraceLine(spans));
    } catch (error) {
      if (this.writeFailed) return;
      this.writeFailed = true;
      this.options.warn(`could not write the run's trace to ${this.options.file} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
