/** How often, at most, output is reported while it flows. */
export const OUTPUT_REPORT_MS = 250;

/** Counts bytes and reports them at most once per interval, with a trailing report for the last burst. */
export class OutputMeter {
  private unreported = 0;
  private lastReport = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: (bytes: number) => void,
    private readonly intervalMs = OUTPUT_REPORT_MS,
  ) {}

  /** Records that `bytes` arrived. */
  add(bytes: number): void {
    this.unreported += bytes;
    if (this.timer) return;
    const wait = this.lastReport + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait).unref();
  }

  /** Reports what is left at once and stops the timer (the output is over). */
  stop(): void {
    clearTimeout(this.timer);
    this.flush();
  }

  private flush(): void {
    this.timer = undefined;
    this.lastReport = Date.now();
    const bytes = this.unreported;
    this.unreported = 0;
    if (bytes > 0) this.report(bytes);
  }
}
