import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { cassettesRootOf } from '../../core/run-paths.js';
import { WaveError } from '../../core/errors/errors.js';
import { describeCause } from '../../io-error.js';
import { CASSETTE_FILE, CASSETTE_RUNS_DIR, CASSETTE_VERSION, CassetteSchema, type Cassette } from '../../state/cassette-schema.js';
import { CassetteEntries, MAX_UNPACKED_BYTES } from './cassette-entries.js';

/** A cassette unpacked in the project: its cassette.json, and the folder holding its `runs/<id>/`. */
export interface OpenedCassette {
  cassette: Cassette;
  /** The runs folder of the unpacked cassette (absolute): the recorded run and its child runs, side by side. */
  runsRoot: string;
}

const HINT = 'Export the cassette again with `wave replay export <run> -o <file>`: a cassette is a tar.gz of cassette.json and runs/<id>/ folders of plain files.';

/** A cassette that cannot be replayed, naming the file and why; `hint` when there is a better one than exporting again. */
function invalid(file: string, reason: string, hint = HINT): WaveError {
  return new WaveError('cassette_invalid', `cassette ${file}: ${reason}`, { hint });
}

/**
 * Opens a cassette (untrusted): unpacked once into `.wave/cassettes/<first 16 hex of its sha256>/` of the project and
 * reused from there. It is unpacked beside that folder and renamed into place only once every entry and cassette.json
 * passed, so the folder is whole or absent; a refused cassette leaves nothing behind.
 */
export async function openCassette(file: string, projectRoot: string, maxBytes = MAX_UNPACKED_BYTES): Promise<OpenedCassette> {
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new WaveError('file_not_found', `no cassette file ${file}`, { hint: 'Give the path of a cassette `wave replay export` wrote, or a run id.' });
  }
  const target = join(cassettesRootOf(projectRoot), (await sha256Of(file)).slice(0, 16));
  if (!existsSync(target)) await unpack(file, target, maxBytes);
  return { cassette: readCassetteFile(file, target), runsRoot: join(target, CASSETTE_RUNS_DIR) };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    await pipeline(createReadStream(file), hash);
  } catch (cause) {
    throw invalid(file, `cannot be read: ${describeCause(cause)}`, 'Check the file is readable.');
  }
  return hash.digest('hex');
}

/** Unpacks into a sibling folder of its own, checks it, then renames it to `target` (another process may have won the race: fine). */
async function unpack(file: string, target: string, maxBytes: number): Promise<void> {
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  const entries = new CassetteEntries(maxBytes);
  try {
    await mkdir(partial, { recursive: true });
    // tar loads only when a cassette is opened: every `wave run` reaches this module.
    const { extract } = await import('tar');
    try {
      await extract({ file, cwd: partial, strict: true, preserveOwner: false, filter: entries.accept });
    } catch (cause) {
      throw invalid(file, entries.problem ?? `is not a gzipped tar archive (${describeCause(cause)})`);
    }
    if (entries.problem !== undefined) throw invalid(file, entries.problem);
    readCassetteFile(file, partial);
    renameInto(partial, target);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

function renameInto(partial: string, target: string): void {
  try {
    renameSync(partial, target);
  } catch (cause) {
    // Another process unpacked the same cassette first: its copy is as good.
    if (!existsSync(target)) throw cause;
  }
}

/** The unpacked cassette's cassette.json, checked against its format, its runs present. */
function readCassetteFile(file: string, dir: string): Cassette {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(join(dir, CASSETTE_FILE), 'utf8'));
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw invalid(file, missing ? `holds no ${CASSETTE_FILE}` : `its ${CASSETTE_FILE} is not JSON (${describeCause(cause)})`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== CASSETTE_VERSION) {
    throw invalid(
      file,
      `its ${CASSETTE_FILE} is format version ${JSON.stringify(version) ?? '(none)'}; this Wave reads version ${CASSETTE_VERSION}`,
      `Replay it with the Wave that exported it, or export the run again with this one (\`wave replay export <run> -o <file>\`).`,
    );
  }
  const parsed = CassetteSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(file, `its ${CASSETTE_FILE} does not fit the cassette format: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const absent = parsed.data.runs.find((id) => !existsSync(join(dir, CASSETTE_RUNS_DIR, id)));
  if (absent !== undefined) throw invalid(file, `its ${CASSETTE_FILE} names run ${absent}, whose folder ${CASSETTE_RUNS_DIR}/${absent}/ it does not hold`);
  return parsed.data;
}
