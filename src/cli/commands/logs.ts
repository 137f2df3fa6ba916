import type { Command } from 'commander';
import { positiveInteger } from '../run-options.js';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { safeText } from '../../core/terminal-safe.js';
import { WaveError } from '../../core/errors/errors.js';
import { isProcessAlive } from '../../process/liveness.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { attemptLogPath, attemptsOf, type LogStream } from '../../state/step-logs.js';
import { shouldColor } from '../../report/color.js';
import { TranscriptLogs } from '../transcript-logs.js';

interface LogsOptions {
  manifest?: string;
  step?: string;
  attempt?: number;
  stderr?: boolean;
  stdout?: boolean;
  raw?: boolean;
  follow?: boolean;
}

/** A step's stored output file, or its rendered transcript (an agent step, without --raw). */
type LogSource = { stepId: string; attempt: number; file: string; stream: LogStream } | { stepId: string; transcript: true };

const POLL_MS = 250;
const CHUNK_BYTES = 1 << 20;

/** `wave logs <run>`: each agent step's transcript and each command step's output (its latest attempt), or one step's; --follow tails it. */
export function registerLogs(program: Command): void {
  program
    .command('logs')
    .description("Print a run's steps: an agent step's transcript (messages, tool calls and results, attempts), a command step's output.")
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .option('--step <id>', 'only this step')
    .option('--attempt <n>', "only this attempt of the step (default: a command step's latest, every attempt of an agent step; needs --step)", positiveInteger('--attempt'))
    .option('--stdout', "print only a command step's stdout (by default stdout, then stderr marked)")
    .option('--stderr', "print only a step's stderr")
    .option('--raw', "print the stored stdout (or stderr) as it is, control characters included (an agent's NDJSON stream) instead of its transcript")
    .option('-f, --follow', 'keep printing as the output grows, until the run ends')
    .action(async (runId: string, options: LogsOptions) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const stepIds = selectSteps(store.record, options);
      const streams = streamsShown(options);
      const printer = new LogPrinter({ manySteps: stepIds.length > 1, bothStreams: streams.length > 1, exact: options.raw === true });
      const raw = options.raw === true || options.stderr === true;
      const transcripts = new TranscriptLogs(store.dir, stepIds, { attempt: options.attempt, color: shouldColor(process.stdout) });
      const selection: LogSelection = { stepIds, streams, attempt: options.attempt, transcripts: raw ? undefined : transcripts };
      const sourcesNow = () => currentSources(store.dir, store.record, selection);
      // A transcript is rendered again from the events each time; a file is printed whole, or what grew when following.
      const print = (source: LogSource, live: boolean) =>
        'transcript' in source ? printer.printLines(source.stepId, transcripts.lines(source.stepId, live)) : options.follow ? printer.printNew(source) : printer.printWhole(source);
      // Write errors reach each write's callback (see writeOut); without a listener they would also crash.
      process.stdout.on('error', () => {});
      try {
        if (!options.follow) {
          if (!raw) await transcripts.refresh();
          for (const source of sourcesNow()) await print(source, false);
        } else {
          for (;;) {
            const finished = !isLive(reloadQuietly(store));
            if (!raw) await transcripts.refresh();
            for (const source of sourcesNow()) await print(source, !finished);
            if (finished) break;
            await sleep(POLL_MS);
          }
        }
      } catch (error) {
        // The reader went away (`wave logs … | head`): nothing left to print to.
        if ((error as NodeJS.ErrnoException).code === 'EPIPE') return;
        throw error;
      }
      if (!printer.printedAny) process.stderr.write(`no ${streams.length > 1 ? 'output' : streams[0]} recorded for ${describeSelection(store.record.id, options.step)}\n`);
    });
}

/** The streams of a command step shown: both by default (a failing command often writes only to stderr), one when asked; --raw keeps to stdout. */
function streamsShown(options: LogsOptions): LogStream[] {
  if (options.stderr) return ['stderr'];
  return options.stdout || options.raw ? ['stdout'] : ['stdout', 'stderr'];
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

type FileSource = Extract<LogSource, { file: string }>;

/** What is shown of the run: its steps, the streams, the attempt named (else each step's latest), and the transcripts unless raw. */
interface LogSelection {
  stepIds: string[];
  streams: LogStream[];
  attempt?: number;
  transcripts?: TranscriptLogs;
}

/** For each step, its transcript (an agent step, unless raw) or the file of its chosen attempt (the latest unless one is named); steps not started yet have none. */
function currentSources(runDir: string, record: RunRecord, selection: LogSelection): LogSource[] {
  const { stepIds, streams, attempt, transcripts } = selection;
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
    if (transcripts?.isAgentStep(record, stepId)) sources.push({ stepId, transcript: true });
    else for (const stream of streams) sources.push({ stepId, attempt: chosen, stream, file: attemptLogPath(runDir, stepId, chosen, stream) });
  }
  return sources;
}

/** Writes log files and transcripts to stdout, each headed by its step when several steps are shown, the attempt changes or it is stderr. */
class LogPrinter {
  printedAny = false;
  private lastFile: string | undefined;
  private readonly offsets = new Map<string, number>();
  /** Lines of each transcript printed so far: a transcript only grows. */
  private readonly printedLines = new Map<string, number>();
  /** Each file's decoder: a character split between two reads is decoded whole. */
  private readonly decoders = new Map<string, StringDecoder>();

  constructor(
    private readonly shape: {
      manySteps: boolean;
      /** Stdout and stderr are both shown: stderr is always headed, so it is never taken for stdout. */
      bothStreams: boolean;
      /** --raw: the stored bytes as they are; otherwise what a step wrote is shown with its control characters escaped. */
      exact: boolean;
    },
  ) {}

  /** A piece of a step's stored output as printed: as it is with --raw, else decoded and made safe for a terminal. */
  private shown(file: string, chunk: Buffer): Buffer | string {
    if (this.shape.exact) return chunk;
    let decoder = this.decoders.get(file);
    if (!decoder) this.decoders.set(file, (decoder = new StringDecoder('utf8')));
    return safeText(decoder.write(chunk));
  }

  /** The lines of a step's transcript not printed yet. */
  async printLines(stepId: string, lines: readonly string[]): Promise<void> {
    const printed = this.printedLines.get(stepId) ?? 0;
    if (lines.length <= printed) return;
    await this.header({ stepId, file: `transcript of ${stepId}`, label: stepId });
    await writeOut(`${lines.slice(printed).join('\n')}\n`);
    this.printedLines.set(stepId, lines.length);
  }

  /** The whole file, streamed (it may be far larger than memory). */
  async printWhole(source: FileSource): Promise<void> {
    // An empty stream says nothing: no header for it.
    if (!(await sizeOf(source.file))) return;
    await this.header(source);
    for await (const chunk of createReadStream(source.file)) await writeOut(this.shown(source.file, chunk as Buffer));
  }

  /** What was appended to the file since the last call. */
  async printNew(source: FileSource): Promise<void> {
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
        await writeOut(this.shown(source.file, buffer.subarray(0, bytesRead)));
        position += bytesRead;
      }
      this.offsets.set(source.file, position);
    } finally {
      await handle.close();
    }
  }

  private async header(source: FileSource | { stepId: string; file: string; label: string }): Promise<void> {
    if (source.file === this.lastFile) return;
    const marked = this.shape.bothStreams && 'stream' in source && source.stream === 'stderr';
    if (this.shape.manySteps || this.lastFile !== undefined || marked) {
      const label = 'label' in source ? source.label : `${source.stepId} (attempt ${source.attempt}, ${source.stream})`;
      await writeOut(`${this.printedAny ? '\n' : ''}==> ${label} <==\n`);
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
