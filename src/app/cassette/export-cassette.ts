import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { create, type ReadEntry } from 'tar';
import { runsRootOf } from '../../core/run-paths.js';
import { WaveError } from '../../core/errors/errors.js';
import { ioError } from '../../io-error.js';
import { PACKAGE_VERSION } from '../../package-root.js';
import { CASSETTE_FILE, CASSETTE_RUNS_DIR, CASSETTE_VERSION, type Cassette } from '../../state/cassette-schema.js';
import { RUN_ID_PATTERN } from '../../state/run-id.js';
import { liveLockOwner } from '../../state/run-lock.js';
import { RunStore } from '../../state/run-store.js';
import { recordedChildRuns } from '../replay-options.js';

/** What `wave replay export` packs: a run of the project, into `file`. */
export interface ExportCassetteRequest {
  /** The project's folder (the manifest's), whose `.wave/runs` holds the run. */
  projectRoot: string;
  /** The run's id (resolved). */
  runId: string;
  /** The cassette to write (absolute). */
  file: string;
  /** Overwrite an existing file. */
  force?: boolean;
}

/**
 * What a run folder holds that names the machine or is live state, not the recording: the run's lock, the space it
 * holds while it runs, the `wave` launcher steps find on PATH (an absolute path of this machine) and each attempt's pid.
 */
const LEFT_OUT = [/^[^/]+\/lock$/, /^[^/]+\/lock\.break$/, /^[^/]+\/\.space-reserve$/, /^[^/]+\/bin(\/|$)/, /^[^/]+\/steps\/[^/]+\/attempt-\d+\/pid$/];

/** Packs a recorded run and every child run it started into a cassette (a tar.gz), written whole or not at all. */
export async function exportCassette(request: ExportCassetteRequest): Promise<Cassette> {
  const runsRoot = runsRootOf(request.projectRoot);
  const { record } = RunStore.open(runsRoot, request.runId);
  const owner = liveLockOwner(join(runsRoot, record.id));
  if (owner) {
    throw new WaveError('invalid_argument', `run ${record.id} is still running (pid ${owner.pid}): its recording is not finished`, {
      hint: 'Export it once it has ended, or stop it with `wave cancel`.',
    });
  }
  refuseOverwrite(request.file, request.force === true);
  const cassette: Cassette = {
    kind: 'WaveCassette',
    version: CASSETTE_VERSION,
    run: record.id,
    pipeline: record.pipeline,
    ...pipelineFileWithin(request.projectRoot, record.pipelineFile),
    runs: runsStartedBy(runsRoot, record.id),
    createdAt: new Date().toISOString(),
    wave: PACKAGE_VERSION,
  };
  await writeCassette(request.file, cassette, runsRoot);
  return cassette;
}

function refuseOverwrite(file: string, force: boolean): void {
  if (!existsSync(file)) return;
  if (statSync(file).isDirectory()) throw new WaveError('invalid_argument', `${file} is a folder`, { hint: 'Name the cassette file to write, e.g. `-o replay.tgz`.' });
  if (!force) throw new WaveError('file_exists', `${file} exists`, { hint: 'Pass --force to overwrite it, or name another file with -o.' });
}

/** The pipeline file relative to the project, `/`-separated, when it lies inside it. */
function pipelineFileWithin(projectRoot: string, pipelineFile: string): { pipelineFile?: string } {
  const path = relative(projectRoot, pipelineFile);
  if (path === '' || isAbsolute(path) || path.split(sep).includes('..')) return {};
  return { pipelineFile: path.split(sep).join('/') };
}

/** The run, then every child run it started (theirs too), each once; a child whose folder is gone is refused by name. */
function runsStartedBy(runsRoot: string, runId: string): string[] {
  const runs = [runId];
  for (let i = 0; i < runs.length; i++) {
    for (const { childRunId } of recordedChildRuns(join(runsRoot, runs[i]!))) {
      if (runs.includes(childRunId)) continue;
      if (!RUN_ID_PATTERN.test(childRunId) || !existsSync(join(runsRoot, childRunId))) {
        throw new WaveError('run_not_found', `run ${runs[i]} started the child run ${childRunId}, whose folder is not in ${runsRoot}`, {
          hint: 'A cassette needs every child run of the run: export a run whose child runs were not cleaned away, or record it again.',
        });
      }
      runs.push(childRunId);
    }
  }
  return runs;
}

/**
 * Writes cassette.json and `runs/<id>/` of each run into a temp file beside `file`, then renames it. tar packs from one
 * folder: a scratch one holding cassette.json and `runs`, a symlink to the runs folder (which tar passes through as
 * a path, never stores).
 */
async function writeCassette(file: string, cassette: Cassette, runsRoot: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'wave-cassette-'));
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const refused: string[] = [];
  try {
    writeFileSync(join(scratch, CASSETTE_FILE), `${JSON.stringify(cassette, null, 2)}\n`);
    symlinkSync(runsRoot, join(scratch, CASSETTE_RUNS_DIR));
    const keep = (path: string, stat: Stats | ReadEntry): boolean => {
      if (path === CASSETTE_FILE) return true;
      const inRuns = path.slice(CASSETTE_RUNS_DIR.length + 1);
      if (LEFT_OUT.some((pattern) => pattern.test(inRuns))) return false;
      const entry = stat as Stats;
      if (!entry.isFile() && !entry.isDirectory()) refused.push(path);
      return entry.isFile() || entry.isDirectory();
    };
    await create({ gzip: true, file: temp, cwd: scratch, portable: true, filter: keep }, [CASSETTE_FILE, ...cassette.runs.map((id) => `${CASSETTE_RUNS_DIR}/${id}`)]);
    if (refused.length > 0) {
      throw new WaveError('invalid_argument', `the run folder holds ${refused.map((path) => `\`${path}\``).join(', ')}, which is not a plain file or folder`, {
        hint: 'A cassette holds only plain files and folders (a replay refuses anything else): remove it from the run folder, then export again.',
      });
    }
    renameSync(temp, file);
  } catch (cause) {
    if (cause instanceof WaveError) throw cause;
    throw ioError('write the cassette', file, cause);
  } finally {
    rmSync(temp, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
