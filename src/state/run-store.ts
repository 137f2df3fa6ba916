import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WaveError } from '../errors.js';
import { RunEventSchema } from '../event-schema.js';
import type { EventBus, RunEvent } from '../events.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { cachedValueRedactor, redactingReplacer, type TextRedactor } from './redact-values.js';
import { readRunRecord } from './run-record-file.js';
import type { RunRecord } from './run-record.js';

export const RUN_FILE = 'run.json';
export const EVENTS_FILE = 'events.ndjson';

// Paths `wave resume` must find again; a passthrough value that happens to be part of one must not break them.
const UNREDACTED_RECORD_KEYS: ReadonlySet<string> = new Set(['id', 'pipelineFile', 'manifestFile', 'workspace', 'path']);

// Bursts of updates (hundreds of steps) are written at most this often; step ends are flushed at once.
const WRITE_INTERVAL_MS = 100;

// Step ids become folder names; the pipeline schema allows exactly these.
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** One run's folder: run.json (atomic snapshot), events.ndjson (append-only), step attempts, artifacts. */
export class RunStore {
  private current: RunRecord;
  private lastWrite = 0;
  private pendingWrite: NodeJS.Timeout | undefined;
  private eventsFd: number | undefined;
  private readonly redactEvent: <T>(value: T) => T;
  private readonly recordReplacer: ((key: string, value: unknown) => unknown) | undefined;

  private constructor(
    readonly dir: string,
    record: RunRecord,
    redactor?: TextRedactor,
  ) {
    this.current = record;
    this.redactEvent = redactor ? cachedValueRedactor(redactor) : (value) => value;
    this.recordReplacer = redactor ? redactingReplacer(redactor, UNREDACTED_RECORD_KEYS) : undefined;
  }

  /** Creates `<runsRoot>/<record.id>/` and writes its first run.json; an existing folder is an error. */
  static create(runsRoot: string, record: RunRecord, redactor?: TextRedactor): RunStore {
    assertSafeSegment(record.id, 'run id');
    const dir = join(runsRoot, record.id);
    try {
      mkdirSync(runsRoot, { recursive: true });
      mkdirSync(dir);
    } catch (cause) {
      throw new WaveError('io_error', `cannot create run folder ${dir}: ${(cause as Error).message}`, { cause });
    }
    const store = new RunStore(dir, record, redactor);
    store.writeRecord();
    return store;
  }

  /** Opens a run by id or by a unique prefix of one; run_not_found (hint `wave runs`) otherwise. */
  static open(runsRoot: string, runId: string, redactor?: TextRedactor): RunStore {
    const id = resolveRunId(runsRoot, runId);
    const dir = join(runsRoot, id);
    return new RunStore(dir, readRunRecord(join(dir, RUN_FILE)), redactor);
  }

  /** Every readable run under runsRoot, newest first; folders without a valid run.json are skipped. */
  static list(runsRoot: string): RunRecord[] {
    const records: RunRecord[] = [];
    for (const name of runFolderNames(runsRoot)) {
      try {
        records.push(readRunRecord(join(runsRoot, name, RUN_FILE)));
      } catch {
        // A half-created or foreign folder is not a run; listing goes on.
      }
    }
    return records.sort((a, b) => compareDesc(a.startedAt, b.startedAt) || compareDesc(a.id, b.id));
  }

  /** The live record; change it only through update() so every change reaches run.json. */
  get record(): RunRecord {
    return this.current;
  }

  /** Applies a change to the record; run.json is rewritten atomically at once, or within WRITE_INTERVAL_MS when writes come faster. */
  update(mutate: (record: RunRecord) => void): void {
    mutate(this.current);
    if (this.pendingWrite) return;
    const wait = this.lastWrite + WRITE_INTERVAL_MS - Date.now();
    if (wait <= 0) this.writeRecord();
    else this.pendingWrite = setTimeout(() => this.flushLater(), wait);
  }

  /** A burst's delayed write: a failure there has no caller to throw to, so it is reported and the next write retries. */
  private flushLater(): void {
    try {
      this.flush();
    } catch (error) {
      process.stderr.write(`wave: could not save ${join(this.dir, RUN_FILE)}: ${(error as Error).message}\n`);
    }
  }

  /** Writes run.json now if an update is waiting (a step finished, the run ended). */
  flush(): void {
    if (!this.pendingWrite) return;
    clearTimeout(this.pendingWrite);
    this.pendingWrite = undefined;
    this.writeRecord();
  }

  /** Re-reads run.json from disk (another process may have changed it). */
  reload(): RunRecord {
    this.current = readRunRecord(join(this.dir, RUN_FILE));
    return this.current;
  }

  /** Appends one event, redacted, as a line of events.ndjson. */
  appendEvent(event: RunEvent): void {
    this.eventsFd ??= openSync(join(this.dir, EVENTS_FILE), 'a');
    const bytes = Buffer.from(`${JSON.stringify(this.redactEvent(event))}\n`);
    for (let done = 0; done < bytes.length; ) done += writeSync(this.eventsFd, bytes, done);
  }

  /** Appends every event the bus emits from now on; returns the unsubscribe function. */
  attach(bus: EventBus): () => void {
    return bus.subscribe((event) => this.appendEvent(event));
  }

  /** `steps/<stepId>/attempt-<n>/`, created on demand: where the process layer writes stdout and stderr. */
  attemptDir(stepId: string, attempt: number): string {
    const dir = this.attemptPath(stepId, attempt);
    mkdirSync(dir, { recursive: true });
    return dir;
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
    const dir = join(this.dir, 'artifacts', stepId);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Every event stored so far; lines that are torn or not events are skipped. */
  readEvents(): RunEvent[] {
    const file = join(this.dir, EVENTS_FILE);
    if (!existsSync(file)) return [];
    const events: RunEvent[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = RunEventSchema.safeParse(JSON.parse(line));
        if (parsed.success) events.push(parsed.data);
      } catch {
        // A torn last line (a kill mid-write) is skipped, never fatal.
      }
    }
    return events;
  }

  /** Closes events.ndjson; later appends reopen it. */
  close(): void {
    this.flush();
    if (this.eventsFd === undefined) return;
    closeSync(this.eventsFd);
    this.eventsFd = undefined;
  }

  private writeRecord(): void {
    this.lastWrite = Date.now();
    writeFileAtomicSync(join(this.dir, RUN_FILE), `${JSON.stringify(this.current, this.recordReplacer, 2)}\n`);
  }
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

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
