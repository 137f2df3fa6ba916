import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WaveError } from '../core/errors/errors.js';
import { describeCause, diskFaultHint, ioError, ioErrorOf } from '../io-error.js';
import type { RunEvent } from '../events.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { filledLineCount, parseEventLines, readEventsFile, readEventsText } from './events-file.js';
import { FaultLatch } from './fault-latch.js';
import { cachedValueRedactor, redactingReplacer, type TextRedactor } from './redact-values.js';
import { applyEvent, creationEvent, foldEvents } from './record/apply-event.js';
import { readRunRecord } from './record/run-record-file.js';
import type { RunRecord } from './record/run-record.js';

export const RUN_FILE = 'run.json';
export const EVENTS_FILE = 'events.ndjson';

// Paths `wave resume` must find again; a passthrough value that happens to be part of one must not break them.
const UNREDACTED_RECORD_KEYS: ReadonlySet<string> = new Set(['id', 'pipelineFile', 'manifestFile', 'workspace', 'path']);
// The same in events, but for `path`: an event's path may name a file the agent made.
const UNREDACTED_EVENT_KEYS: ReadonlySet<string> = new Set(['id', 'pipelineFile', 'manifestFile', 'workspace']);

// run.json is a snapshot of the events: written at most this often while the run runs, and when it ends.
const SNAPSHOT_INTERVAL_MS = 500;

// Space held on the run's disk while it runs, given back for the run.json that ends it when the disk is full.
const RESERVE_FILE = '.space-reserve';
const RESERVE_BYTES = 64 * 1024;

// Step ids become folder names; the pipeline schema allows exactly these.
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * One run's folder: events.ndjson (append-only, the truth), run.json (an atomic snapshot of the events' fold), step
 * attempts, artifacts. Events are the only write: each is appended, then folded into the live record (applyEvent).
 */
export class RunStore {
  private current: RunRecord;
  /** How many events of events.ndjson the record folds. */
  private folded: number;
  private lastWrite = 0;
  private pendingWrite: NodeJS.Timeout | undefined;
  private eventsFd: number | undefined;
  /** The record changed since run.json was last written successfully. */
  private dirty = false;
  /** An append failed part-way: the next one starts on a fresh line so the torn one stays alone. */
  private tornEvent = false;
  /** RESERVE_FILE is held in the run folder. */
  private reserved = false;
  private readonly faults = new FaultLatch();
  private readonly redactEvent: <T>(value: T) => T;
  private readonly recordReplacer: ((key: string, value: unknown) => unknown) | undefined;

  private constructor(
    readonly dir: string,
    record: RunRecord,
    redactor?: TextRedactor,
  ) {
    this.current = record;
    this.folded = record.eventCount ?? 0;
    this.redactEvent = redactor ? cachedValueRedactor(redactor, UNREDACTED_EVENT_KEYS) : (value) => value;
    this.recordReplacer = redactor ? redactingReplacer(redactor, UNREDACTED_RECORD_KEYS) : undefined;
  }

  /**
   * Creates `<runsRoot>/<record.id>/` for a fresh record (every step pending), recording its run_created event and
   * first run.json; an existing folder is an error unless `partsFolder` allows one without run.json.
   */
  static create(runsRoot: string, record: RunRecord, redactor?: TextRedactor, { partsFolder = false } = {}): RunStore {
    assertSafeSegment(record.id, 'run id');
    const dir = join(runsRoot, record.id);
    try {
      mkdirSync(runsRoot, { recursive: true });
    } catch (cause) {
      throw ioError('create the runs folder', runsRoot, cause, 'run it again');
    }
    try {
      mkdirSync(dir);
    } catch (cause) {
      const exists = (cause as NodeJS.ErrnoException).code === 'EEXIST';
      // A folder of downloaded step parts (a compiled workflow's job) becomes the run; a recorded run never does.
      if (exists && partsFolder && !existsSync(join(dir, RUN_FILE))) return RunStore.begin(dir, record, redactor, false);
      if (exists) throw new WaveError('io_error', `cannot create run folder ${dir}: it exists`, { cause, hint: 'Choose another run id, or finish that run with `wave resume`.' });
      throw ioError('create the run folder', dir, cause, 'run it again');
    }
    return RunStore.begin(dir, record, redactor, true);
  }

  /** Writes the first event and run.json into `dir`; a failure removes the folder when this call made it. */
  private static begin(dir: string, record: RunRecord, redactor: TextRedactor | undefined, madeDir: boolean): RunStore {
    const store = new RunStore(dir, { ...record, eventCount: 0 }, redactor);
    try {
      store.writeEventLine(creationEvent(record));
      store.folded = 1;
      // Not held open until the run records more: a folder nobody writes to yet can still be moved or remounted.
      store.closeEvents();
      writeFileAtomicSync(store.recordFile, store.serialized());
    } catch (cause) {
      // A run without its first run.json is no run: leave no empty folder behind for `wave runs` to trip over.
      try {
        if (madeDir) rmSync(dir, { recursive: true, force: true });
      } catch {
        // Left behind; `wave runs` skips a folder without run.json.
      }
      throw new WaveError('io_error', `cannot write ${store.recordFile}: ${describeCause(cause)}`, { hint: diskFaultHint(dir, cause, 'run it again'), cause });
    }
    store.lastWrite = Date.now();
    return store;
  }

  /** Opens a run by id or by a unique prefix of one; run_not_found (hint `wave runs`) otherwise. */
  static open(runsRoot: string, runId: string, redactor?: TextRedactor): RunStore {
    const id = resolveRunId(runsRoot, runId);
    const dir = join(runsRoot, id);
    return new RunStore(dir, recordOf(dir), redactor);
  }

  /** Every readable run under runsRoot, newest first, as its run.json says (its events when it has none); unreadable folders are skipped. */
  static list(runsRoot: string): RunRecord[] {
    const records: RunRecord[] = [];
    for (const name of runFolderNames(runsRoot)) {
      const dir = join(runsRoot, name);
      try {
        records.push(existsSync(join(dir, RUN_FILE)) ? readRunRecord(join(dir, RUN_FILE)) : recordOf(dir));
      } catch {
        // A half-created or foreign folder is not a run; listing goes on.
      }
    }
    return records.sort((a, b) => compareDesc(a.startedAt, b.startedAt) || compareDesc(a.id, b.id));
  }

  /** The first write to the run folder that failed (a full disk, a read-only folder…), as an io_error; undefined while all is well. */
  get fault(): WaveError | undefined {
    return this.faults.fault;
  }

  /** Calls `listener` once with the store's first fault (at once when it already has one); returns the unsubscribe function. */
  onFault(listener: (fault: WaveError) => void): () => void {
    return this.faults.onFault(listener);
  }

  /** Records a failed write to the run folder as an io_error (the first one is kept) and tells the listeners; returns it. */
  reportFault(error: unknown, path?: string, action = 'write'): WaveError {
    const then = `\`wave resume ${this.current.id}\` finishes the run`;
    // Without a path, an errno error names its own (and its system call says what was being done).
    return this.faults.report(path === undefined && isErrno(error) && error.path ? ioErrorOf(error, then) : ioError(action, path ?? this.dir, error, then));
  }

  /** The live record: the fold of every event appended so far. */
  get record(): RunRecord {
    return this.current;
  }

  /** run.json follows the record: at once when `now` or the run has ended, else within SNAPSHOT_INTERVAL_MS. */
  // A failed write never throws here (it is a fault, see onFault): the caller is mid-run, with steps to stop first.
  private snapshotSoon(now: boolean): void {
    this.dirty = true;
    if (this.current.status === 'running') this.holdReserve();
    if (now || (this.current.status !== 'running' && this.current.finishedAt !== undefined)) {
      this.flush();
      return;
    }
    if (this.pendingWrite) return;
    const wait = this.lastWrite + SNAPSHOT_INTERVAL_MS - Date.now();
    if (wait <= 0) this.writeRecord();
    else this.pendingWrite = setTimeout(() => this.flushLater(), wait);
  }

  /** A burst's delayed write: a failure there is a fault (the next write retries). */
  private flushLater(): void {
    this.pendingWrite = undefined;
    this.flush();
  }

  /** Writes run.json now if it is behind the record (an update is waiting, or the last write failed); true when it is saved. */
  flush(): boolean {
    if (this.pendingWrite) clearTimeout(this.pendingWrite);
    this.pendingWrite = undefined;
    return this.dirty ? this.writeRecord() : true;
  }

  /** A value as this run stores it: every string redacted as in its events (paths a resume needs kept). */
  redactStored<T>(value: T): T {
    return this.redactEvent(value);
  }

  /** Re-reads the record from disk (another process may be running it). */
  reload(): RunRecord {
    this.current = recordOf(this.dir);
    this.folded = this.current.eventCount ?? 0;
    return this.current;
  }

  /**
   * Records one event: appended, redacted, as a line of events.ndjson, then folded into the record (run.json follows
   * as a snapshot). A failed append is a fault (see onFault), never thrown: the record still takes the event.
   */
  appendEvent(event: RunEvent): void {
    try {
      this.writeEventLine(event);
    } catch (error) {
      this.reportFault(error, join(this.dir, EVENTS_FILE));
    }
    applyEvent(this.current, event);
    this.folded++;
    // A reader of run.json learns at once that the run started or ended; everything else may wait for the next snapshot.
    this.snapshotSoon(event.type === 'run_started' || event.type === 'run_finished');
  }

  /** Appends the event's line to events.ndjson; throws what the write threw. */
  private writeEventLine(event: RunEvent): void {
    const line = `${JSON.stringify(this.redactEvent(event))}\n`;
    const bytes = Buffer.from(this.tornEvent ? `\n${line}` : line);
    let done = 0;
    try {
      this.eventsFd ??= openSync(join(this.dir, EVENTS_FILE), 'a');
      for (; done < bytes.length;) done += writeSync(this.eventsFd, bytes, done);
      this.tornEvent = false;
    } catch (error) {
      // Part of a line may be on disk; readEvents skips it, and the next append must not extend it.
      if (done > 0) this.tornEvent = true;
      throw error;
    }
  }

  /** `steps/<stepId>/attempt-<n>/`, created on demand: where the process layer writes stdout and stderr; throws io_error. */
  attemptDir(stepId: string, attempt: number): string {
    return this.makeDir(this.attemptPath(stepId, attempt));
  }

  /** The path of attemptDir() without creating it, for a caller that creates it off the main thread. */
  attemptPath(stepId: string, attempt: number): string {
    assertSafeSegment(stepId, 'step id');
    if (!Number.isInteger(attempt) || attempt < 1) throw new WaveError('internal', `attempt must be a positive integer, got ${attempt}`);
    return join(this.dir, 'steps', stepId, `attempt-${attempt}`);
  }

  /** `artifacts/<stepId>/`, created on demand. */
  artifactsDir(stepId: string): string {
    assertSafeSegment(stepId, 'step id');
    return this.makeDir(join(this.dir, 'artifacts', stepId));
  }

  /** The absolute path of the stored copy of step `stepId`'s artifact `name`, or undefined when it saved none of that name. */
  savedArtifactPath(stepId: string, name: string): string | undefined {
    const saved = this.current.steps[stepId]?.artifacts.find((a) => a.name === name);
    return saved ? join(this.dir, saved.path) : undefined;
  }

  /** Every event stored so far; lines that are torn or not events are skipped. */
  readEvents(): RunEvent[] {
    return readEventsFile(join(this.dir, EVENTS_FILE));
  }

  /** Writes what is pending and closes events.ndjson (later appends reopen it); throws the store's fault, if it had one. */
  close(): void {
    this.flush();
    this.closeEvents();
    if (this.faults.fault) throw this.faults.fault;
  }

  /** Closes events.ndjson; the next append reopens it. */
  private closeEvents(): void {
    if (this.eventsFd === undefined) return;
    try {
      closeSync(this.eventsFd);
    } catch {
      // Nothing buffered is lost on close: every append was written synchronously.
    }
    this.eventsFd = undefined;
  }

  private get recordFile(): string {
    return join(this.dir, RUN_FILE);
  }

  private serialized(): string {
    this.current.eventCount = this.folded;
    return `${JSON.stringify(this.current, this.recordReplacer, 2)}\n`;
  }

  /**
   * Rewrites run.json atomically (temp file + rename: a failure leaves the last good one); a failure is a fault. The
   * record that ends a run is written into the space held for it when the disk is full, so it never stays `running`.
   */
  private writeRecord(): boolean {
    this.lastWrite = Date.now();
    const ending = this.current.status !== 'running';
    let error = this.tryWriteRecord();
    if (error !== undefined && ending && isSpaceFault(error) && this.releaseReserve()) error = this.tryWriteRecord();
    if (error !== undefined) {
      this.reportFault(error, this.recordFile);
      return false;
    }
    this.dirty = false;
    if (ending) this.releaseReserve();
    return true;
  }

  /** Writes run.json once; the error, or undefined when it is saved. */
  private tryWriteRecord(): unknown {
    try {
      writeFileAtomicSync(this.recordFile, this.serialized());
      return undefined;
    } catch (error) {
      return error;
    }
  }

  /** Holds RESERVE_BYTES in the run folder while the run runs; on a disk already full there is none to hold. */
  private holdReserve(): void {
    if (this.reserved) return;
    const file = join(this.dir, RESERVE_FILE);
    try {
      writeFileSync(file, Buffer.alloc(RESERVE_BYTES));
      this.reserved = true;
    } catch {
      rmSync(file, { force: true });
    }
  }

  /** Gives the held space back; true when there was some. */
  private releaseReserve(): boolean {
    if (!this.reserved) return false;
    this.reserved = false;
    try {
      rmSync(join(this.dir, RESERVE_FILE), { force: true });
      return true;
    } catch {
      return false;
    }
  }

  private makeDir(dir: string): string {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (cause) {
      throw this.reportFault(cause, dir, 'create the folder');
    }
    return dir;
  }
}

/**
 * The record of the run in `dir`: the fold of its events.ndjson, the truth whatever run.json says. run.json is a
 * snapshot of the fold of its first `eventCount` events, so only the events after those (a kill leaves some) are
 * folded onto it; without a readable run.json every event is. A run recorded before events began with run_created
 * (no eventCount) is its run.json.
 */
function recordOf(dir: string): RunRecord {
  const text = readEventsText(join(dir, EVENTS_FILE));
  let snapshot: RunRecord;
  try {
    snapshot = readRunRecord(join(dir, RUN_FILE));
  } catch (error) {
    const events = parseEventLines(text);
    const folded = foldEvents(events);
    if (!folded) throw error;
    return Object.assign(folded, { eventCount: events.length });
  }
  const count = snapshot.eventCount;
  // A snapshot that holds at least as many events as the file has lines is the whole fold: no line is parsed.
  if (count === undefined || count >= filledLineCount(text)) return snapshot;
  const events = parseEventLines(text);
  if (count >= events.length || events[0]?.type !== 'run_created') return snapshot;
  for (const event of events.slice(count)) applyEvent(snapshot, event);
  return Object.assign(snapshot, { eventCount: events.length });
}

/** The folder name of the run `idOrPrefix` names: an exact id, else the one id starting with it. */
export function resolveRunId(runsRoot: string, idOrPrefix: string): string {
  const names = runFolderNames(runsRoot);
  if (SAFE_SEGMENT.test(idOrPrefix) && names.includes(idOrPrefix)) return idOrPrefix;
  const matches = idOrPrefix ? names.filter((name) => name.startsWith(idOrPrefix)) : [];
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new WaveError('invalid_argument', `\`${idOrPrefix}\` matches ${matches.length} runs: ${matches.sort().join(', ')}`, {
      hint: 'Give more of the run id.',
    });
  }
  throw new WaveError('run_not_found', `no run \`${idOrPrefix}\` under ${runsRoot}`, { hint: 'List the recorded runs with `wave runs`.' });
}

function runFolderNames(runsRoot: string): string[] {
  try {
    return readdirSync(runsRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && SAFE_SEGMENT.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function assertSafeSegment(value: string, what: string): void {
  if (!SAFE_SEGMENT.test(value)) throw new WaveError('internal', `${what} \`${value}\` cannot be used as a folder name`);
}

/** A write refused for want of space: the errors held space can cure. */
function isSpaceFault(error: unknown): boolean {
  return isErrno(error) && (error.code === 'ENOSPC' || error.code === 'EDQUOT');
}

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
