import type { Command } from 'commander';
import { positiveInteger } from '../run-options.js';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { WaveError } from '../../errors.js';
import { isProcessAlive } from '../../core/liveness.js';
import type { RunRecord } from '../../state/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { attemptLogPath, attemptsOf, type LogStream } from '../../state/step-logs.js';

interface LogsOptions {
  manifest?: string;
  step?: string;
  attempt?: number;
  stderr?: boolean;
  follow?: boolean;
}

interface LogSource {
  stepId: string;
  attempt: number;
  file: string;
}

const POLL_MS = 250;
const CHUNK_BYTES = 1 << 20;

/** `wave logs <run>`: the stored output of each step's latest attempt, or of one step; --follow tails it. */
export function registerLogs(program: Command): void {
  program
    .command('logs')
    .description("Print the stored output of a run's steps (each step's latest attempt).")
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml)')
    .option('--step <id>', 'only this step')
    .option('--attempt <n>', 'this attempt of the step instead of the latest (needs --step)', positiveInteger('--attempt'))
    .option('--stderr', 'print stderr instead of stdout')
    .option('-f, --follow', 'keep printing as the output grows, until the run ends')
    .action(async (runId: string, options: LogsOptions) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const stepIds = selectSteps(store.record, options);
      const stream: LogStream = options.stderr ? 'stderr' : 'stdout';
      const printer = new LogPrinter(stepIds.length > 1, stream);
      const sourcesNow = () => currentSources(store.dir, store.record, stepIds, stream, options.attempt);
      // Write errors reach each write's callback (see writeOut); without a listener they would also crash.
      process.stdout.on('error', () => {});
      try {
        if (!options.follow) {
          for (const source of sourcesNow()) await printer.printWhole(source);
        } else {
          for (;;) {
            const finished = !isLive(reloadQuietly(store));
            for (const source of sourcesNow()) await printer.printNew(source);
            if (finished) break;
            await sleep(POLL_MS);
          }
        }
      } catch (error) {
        // The reader went away (`wave logs … | head`): nothing left to print to.
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') return;
        throw error;
      }
      if (!printer.printedAny) process.stderr.write(`no ${stream} recorded for ${describeSelection(store.record.id, options.step)}\n`);
    });
}

function selectSteps(record: RunRecord, options: LogsOptions): string[] {
  const all = Object.keys(record.steps);
  if (options.attempt !== undefined && !options.step) throw new WaveError('invalid_argument', '--attempt needs --step');
  if (!options.step) return all;
  if (!record.steps[options.step]) {
    throw new WaveError('invalid_argument', `run ${record.id} has no step \`${options.step}\``, { hint: `Its steps: ${all.join(', ')}.` });
  }
  return [options.step];
}

/** For each step, the file of its chosen attempt (the latest unless one is named); steps not started yet have none. */
function currentSources(runDir: string, record: RunRecord, stepIds: string[], stream: LogStream, attempt?: number): LogSource[] {
  const sources: LogSource[] = [];
  for (const stepId of stepIds) {
    const attempts = attemptsOf(runDir, record, stepId);
    const chosen = attempt ?? attempts.at(-1);
    if (chosen === undefined) continue;
    if (attempt !== undefined && !attempts.includes(attempt)) {
      throw new WaveError('invalid_argument', `step \`${stepId}\` has no attempt ${attempt}`, {
        hint: attempts.length ? `Its attempts: ${attempts.join(', ')}.` : 'It has not run yet.',
      });
    }
    sources.push({ stepId, attempt: chosen, file: attemptLogPath(runDir, stepId, chosen, stream) });
  }
  return sources;
}

/** Writes log files to stdout, each headed by its step when several steps are shown or the attempt changes. */
class LogPrinter {
  printedAny = false;
  private lastFile: string | undefined;
  private readonly offsets = new Map<string, number>();

  constructor(
    private readonly manySteps: boolean,
    private readonly stream: LogStream,
  ) {}

  /** The whole file, streamed (it may be far larger than memory). */
  async printWhole(source: LogSource): Promise<void> {
    const size = await sizeOf(source.file);
    if (size === undefined) return;
    await this.header(source);
    for await (const chunk of createReadStream(source.file)) await writeOut(chunk as Buffer);
  }

  /** What was appended to the file since the last call. */
  async printNew(source: LogSource): Promise<void> {
    const size = await sizeOf(source.file);
    const offset = this.offsets.get(source.file) ?? 0;
    if (size === undefined || size <= offset) return;
    const handle = await open(source.file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size - offset));
      let position = offset;
      while (position < size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
        if (bytesRead === 0) break;
        if (position === offset) await this.header(source);
        await writeOut(buffer.subarray(0, bytesRead));
        position += bytesRead;
      }
      this.offsets.set(source.file, position);
    } finally {
      await handle.close();
    }
  }

  private async header(source: LogSource): Promise<void> {
    if (source.file === this.lastFile) return;
    if (this.manySteps || this.lastFile !== undefined) {
      await writeOut(`${this.printedAny ? '\n' : ''}==> ${source.stepId} (attempt ${source.attempt}, ${this.stream}) <==\n`);
    }
    this.lastFile = source.file;
    this.printedAny = true;
  }
}

/** A run is worth following while it says running and the process driving it is alive. */
function isLive(record: RunRecord): boolean {
  return (record.status === 'running' || record.status === 'pending') && isProcessAlive(record.pid);
}

function reloadQuietly(store: RunStore): RunRecord {
  try {
    return store.reload();
  } catch {
    return store.record; // Unreadable for a moment: keep the last good view.
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

function writeOut(chunk: Buffer | string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())));
}

function describeSelection(runId: string, step?: string): string {
  return step ? `step ${step} of run ${runId}` : `run ${runId}`;
}
