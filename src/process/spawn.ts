import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRedactingStream } from '../redact.js';
import { ByteTail, lastChars } from '../stream/byte-tail.js';
import { LineSplitter } from '../stream/lines.js';
import { OutputMeter } from '../stream/output-meter.js';
import { capStoredOutput, STORED_OUTPUT_BYTES } from '../stream/stored-output-cap.js';
import { launchLocal } from './launch-local.js';
import type { Launcher } from './launched-process.js';
import type { OutputStreamName, SpawnResult, SpawnSpec } from './spawn-spec.js';
import { sweepMark, type StepOwner } from './step-processes.js';
import { endStrayProcesses } from './stray-processes.js';

/** Characters of combined output kept for a retry's prompt. */
export const TAIL_CHARS = 2_000;
/** How long the pipes may stay open once the group is gone (only a process that left the group can hold them). */
const DEFAULT_DRAIN_MS = 5_000;

/** The step a process belongs to, from the variables every step's environment carries. */
function ownerOf(env: Record<string, string>): StepOwner | undefined {
  return env.WAVE_RUN_ID && env.WAVE_STEP_ID ? { runId: env.WAVE_RUN_ID, stepId: env.WAVE_STEP_ID } : undefined;
}

/** A pass-through stage that shows every chunk to `onChunk`. */
function tapStream(onChunk: (chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onChunk(chunk);
      callback(null, chunk);
    },
  });
}

/**
 * Runs a process as the leader of its own group, as `launch` starts it (the host sandbox puts it in a cgroup of its own, the others inside their sandbox), streaming stdout and
 * stderr (redacted) to files with flat memory. On abort the whole group gets SIGTERM, then SIGKILL after graceMs; group members left
 * behind when the leader exits are ended the same way. Resolves once the group is gone; never rejects.
 */
export async function spawnInGroup(spec: SpawnSpec, signal?: AbortSignal, launch: Launcher = launchLocal): Promise<SpawnResult> {
  const folders = await Promise.all([...new Set([dirname(spec.stdoutPath), dirname(spec.stderrPath)])].map((dir) => mkdir(dir, { recursive: true }))).catch(
    (error: NodeJS.ErrnoException) => error,
  );
  const combinedTail = new ByteTail(TAIL_CHARS * 4);
  const stderrTail = new ByteTail(TAIL_CHARS * 4);
  const stdoutCapture = spec.captureStdoutBytes ? new ByteTail(spec.captureStdoutBytes) : undefined;
  const meter = spec.onOutput ? new OutputMeter(spec.onOutput) : undefined;
  const splitters = {
    stdout: new LineSplitter(spec.onLine && ((line) => spec.onLine!(line, 'stdout')), { maxLineBytes: spec.maxLineBytes }),
    stderr: new LineSplitter(spec.onLine && ((line) => spec.onLine!(line, 'stderr')), { maxLineBytes: spec.maxLineBytes }),
  };

  const finish = (fields: Partial<SpawnResult>): SpawnResult => ({
    exitCode: null,
    signal: null,
    aborted: false,
    ...fields,
    skippedLines: splitters.stdout.skippedLines + splitters.stderr.skippedLines,
    tail: lastChars(combinedTail.toString(), TAIL_CHARS),
    stderrTail: lastChars(stderrTail.toString(), TAIL_CHARS),
    ...(stdoutCapture ? { stdoutTail: stdoutCapture.toString() } : {}),
  });

  // Output that cannot be recorded is a failure of the step, said as such; the process is stopped rather than left
  // to die of a closed pipe (SIGPIPE) or to run on unrecorded.
  let outputError: NodeJS.ErrnoException | undefined;
  let stopForOutput: (() => void) | undefined;
  const failOutput = (error: NodeJS.ErrnoException, path: string) => {
    if (outputError) return;
    outputError = Object.assign(error, { path: error.path ?? path });
    stopForOutput?.();
  };

  const saveStream = (source: Readable | null, name: OutputStreamName): Promise<void> => {
    const path = name === 'stdout' ? spec.stdoutPath : spec.stderrPath;
    if (!source) return writeFile(path, '').catch((error: NodeJS.ErrnoException) => failOutput(error, path));
    const tap = tapStream((chunk) => {
      combinedTail.push(chunk);
      if (name === 'stderr') stderrTail.push(chunk);
      else stdoutCapture?.push(chunk);
      splitters[name].write(chunk);
    });
    const count = tapStream((chunk) => meter?.add(chunk.length));
    const file = createWriteStream(path);
    file.on('error', (error: NodeJS.ErrnoException) => failOutput(error, path));
    // Raw bytes are counted before redaction, which may hold back part of an unfinished line.
    const cap = capStoredOutput(name, spec.storedOutputBytes ?? STORED_OUTPUT_BYTES);
    return pipeline(source, count, createRedactingStream(spec.redactor), tap, cap, file)
      .catch(() => undefined) // a pipe destroyed by the drain guard still leaves everything read so far
      .finally(() => splitters[name].end());
  };

  if (folders instanceof Error) return finish({ spawnError: folders });
  if (signal?.aborted) {
    await Promise.all([saveStream(null, 'stdout'), saveStream(null, 'stderr')]);
    return finish({ aborted: true, abortReason: signal.reason, outputError });
  }

  // Only processes started from here on can be the step's: the stray sweep reads no older one.
  const since = sweepMark();
  const started = await launch(spec);
  if ('error' in started) {
    await Promise.all([saveStream(null, 'stdout'), saveStream(null, 'stderr')]);
    // A cancel that ended the launch (a container start) is a cancel, not a failure to start.
    if (signal?.aborted) return finish({ aborted: true, abortReason: signal.reason, outputError });
    return finish({ spawnError: started.error, outputError });
  }
  const child = started.process;
  if (child.stdin) {
    child.stdin.on('error', () => undefined); // EPIPE when the child does not read its input
    child.stdin.end(spec.stdin);
  }
  const saving = Promise.all([saveStream(child.stdout, 'stdout'), saveStream(child.stderr, 'stderr')]);

  const pid = child.pid;
  if (pid !== undefined) spec.onSpawn?.(pid);
  let hasExited = false;
  let aborted = false;
  let abortReason: unknown;
  let termination: Promise<void> | undefined;
  const terminate = (): Promise<void> => (termination ??= child.terminate(spec.graceMs));
  stopForOutput = () => {
    if (!hasExited) void terminate();
  };
  if (outputError) stopForOutput();
  const onAbort = () => {
    if (hasExited) return;
    aborted = true;
    abortReason = signal?.reason;
    void terminate();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  // A cancel that landed while the process was being launched (a container start takes a while) fires no event.
  if (signal?.aborted) onAbort();

  const [exitCode, exitSignal] = await child.exited;
  hasExited = true;
  // Whatever the leader left running in its group (background jobs, hung grandchildren) ends with it, and so does
  // what left the group (setsid, double forks) but still carries the step's identity in its environment.
  if (termination || (await child.hasLeftovers())) await terminate();
  const owner = spec.owner ?? ownerOf(spec.env);
  if (owner) await endStrayProcesses(owner, since);
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    child.closed.then(() => true),
    new Promise<false>((resolve) => (drainTimer = setTimeout(() => resolve(false), spec.drainMs ?? DEFAULT_DRAIN_MS))),
  ]);
  clearTimeout(drainTimer);
  if (!drained) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  await saving;
  meter?.stop();
  signal?.removeEventListener('abort', onAbort);
  const limitExceeded = aborted ? undefined : await child.limitExceeded();
  await child.release();
  // A cancel is what ended the step, whatever its stopping found (a sandbox daemon gone meanwhile).
  const spawnError = aborted ? undefined : child.startError();
  return finish({ exitCode, signal: exitSignal, spawnError, aborted, abortReason, pid, outputError, ...(limitExceeded ? { limitExceeded } : {}) });
}
