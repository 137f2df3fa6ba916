import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { safeLine } from '../core/terminal-safe.js';
import { exportableSpan } from './readable-spans.js';
import { shownUrl, type OtlpDestination } from './otlp-destination.js';
import type { TraceSpan } from './trace-span.js';

const REASON_CHARS = 200;

/** Sends span batches to a collector over OTLP/HTTP (JSON), never throwing: a failure is reported once through `warn`. */
export class OtlpSender {
  /** The exporter, loaded with the first batch: a run that sends no trace never loads OpenTelemetry. */
  private exporter?: Promise<OTLPTraceExporter>;
  private readonly pending = new Set<Promise<void>>();
  private warned = false;

  constructor(
    private readonly destination: OtlpDestination,
    private readonly timeoutMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  private exporterOnce(): Promise<OTLPTraceExporter> {
    this.exporter ??= import('./otlp-exporter.js').then(({ otlpExporter }) => otlpExporter(this.destination, this.timeoutMs));
    return this.exporter;
  }

  /** Starts sending one batch; `drain` waits for it. */
  send(spans: readonly TraceSpan[]): void {
    const sent = this.exporterOnce().then(
      (exporter) =>
        new Promise<void>((resolve) => {
          try {
            exporter.export(
              spans.map((span) => exportableSpan(span)),
              (result) => {
                if (result.error) this.failed(result.error);
                resolve();
              },
            );
          } catch (error) {
            this.failed(error);
            resolve();
          }
        }),
      (error: unknown) => this.failed(error),
    );
    this.pending.add(sent);
    void sent.then(() => this.pending.delete(sent));
  }

  /** Waits for the batches still being sent, at most the flush timeout; what is still unsent then is given up with a warning. */
  async drain(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
      timer.unref();
    });
    const outcome = await Promise.race([Promise.all(this.pending).then(() => 'sent' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.failed(new Error(`no answer within ${this.timeoutMs} ms`));
    void this.exporter?.then((exporter) => exporter.shutdown()).catch(() => undefined);
  }

  private failed(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    // The reason may quote what the collector answered: one line, cut, its control characters shown.
    const reason = safeLine((error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, REASON_CHARS));
    this.warn(`could not send the run's trace to ${shownUrl(this.destination.url)} (${reason})`);
  }
}
