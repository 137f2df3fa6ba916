import type { LaunchedProcess, Launcher } from '../process/launched-process.js';
import { diskUsage } from './disk-usage.js';

const MIB = 1024 * 1024;
/** The shortest pause between two measures; a measure that takes long stretches it (at most a fifth of the time walking). */
const MIN_POLL_MS = 250;
const WALK_SHARE = 4;

/** The message of a step stopped at its disk limit, as limit_exceeded reports it. */
export function diskLimitMessage(limitMb: number, grownBytes: number): string {
  return `disk limit of ${limitMb} MB reached: the step added ${Math.round(grownBytes / MIB)} MB to its workspace, HOME and /tmp (runtime.sandbox.limits.disk_mb)`;
}

/** Measures what a running step adds to its writable folders, from their size when it started. */
class DiskWatch {
  private hit: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private measuring: Promise<void> = Promise.resolve();

  constructor(
    private readonly folders: readonly string[],
    private readonly limitMb: number,
    private readonly baseline: number,
    private readonly onExceeded: () => void,
  ) {
    this.schedule(MIN_POLL_MS);
  }

  /** Stops polling, measures a last time (a step may fill its folders and exit between two polls) and says what it found. */
  async finish(): Promise<string | undefined> {
    if (!this.stopped) {
      this.stop();
      await this.measuring;
      await this.measure();
    }
    return this.hit;
  }

  /** Stops polling without a last measure. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.measuring = this.measure().then(() => {
        if (!this.stopped && !this.hit) this.schedule(Math.max(MIN_POLL_MS, (Date.now() - started) * WALK_SHARE));
      });
    }, delayMs).unref();
  }

  private async measure(): Promise<void> {
    if (this.hit) return;
    const limit = this.limitMb * MIB;
    const grown = (await diskUsage(this.folders, this.baseline + limit)) - this.baseline;
    if (grown <= limit) return;
    this.hit = diskLimitMessage(this.limitMb, grown);
    this.onExceeded();
  }
}

/**
 * A launcher whose process is stopped once it adds more than `limitMb` to `folders` (bind-mounted from the host, so
 * no tmpfs size holds them): measured before it starts, then while it runs and once more when it has exited.
 */
export function diskLimitedLauncher(launch: Launcher, folders: readonly string[], limitMb: number): Launcher {
  return async (spec) => {
    const baseline = await diskUsage(folders);
    const started = await launch(spec);
    if (!('process' in started)) return started;
    const inner = started.process;
    // No grace: a step past its limit is not asked to stop while it writes on (a container's pid 1 ignores SIGTERM).
    const watch = new DiskWatch(folders, limitMb, baseline, () => void inner.terminate(0));
    const launched: LaunchedProcess = {
      ...inner,
      startError: () => inner.startError(),
      terminate: (graceMs) => inner.terminate(graceMs),
      hasLeftovers: () => inner.hasLeftovers(),
      limitExceeded: async () => (await watch.finish()) ?? inner.limitExceeded(),
      release: () => {
        watch.stop();
        return inner.release();
      },
    };
    return { process: launched };
  };
}
