import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findProjectRoot } from '../../config/load/load.js';
import { runsRootOf } from '../../core/run-paths.js';
import type { Cassette } from '../../state/cassette-schema.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { RunStore } from '../../state/run-store.js';
import { openCassette } from './open-cassette.js';

/** A recorded run to replay: its record and folder, and the cassette it came from when it came from one. */
export interface RecordedRun {
  record: RunRecord;
  /** The run folder (absolute). */
  dir: string;
  cassette?: Cassette;
}

/**
 * Whether a replay's argument names a cassette file rather than a run: a path (it holds a `/`) or a name ending in
 * `.tgz` or `.tar.gz`. Run ids are folder names, so they hold no `/`; an id ending so is reached by a prefix.
 */
export function isCassetteArgument(run: string): boolean {
  return run.includes('/') || /\.(tgz|tar\.gz)$/.test(run);
}

/** The recorded run a replay names: a run of the project (an id or a unique prefix), or a cassette file, unpacked in the project. */
export async function openRecordedRun(run: string, cwd: string, manifest?: string): Promise<RecordedRun> {
  const projectRoot = findProjectRoot(cwd, manifest);
  if (!isCassetteArgument(run)) {
    const runsRoot = runsRootOf(projectRoot);
    const store = RunStore.open(runsRoot, run);
    return { record: store.record, dir: join(runsRoot, store.record.id) };
  }
  const { cassette, runsRoot } = await openCassette(resolve(cwd, run), projectRoot);
  const store = RunStore.open(runsRoot, cassette.run);
  return { record: store.record, dir: join(runsRoot, cassette.run), cassette };
}

/**
 * The pipeline a cassette's run replays in this project: its recorded file at the same place in this project when it
 * is there, else the pipeline of that name under pipelines/ (the recorded absolute paths are another machine's).
 */
export function cassettePipeline(cassette: Cassette, cwd: string, manifest?: string): string {
  const projectRoot = findProjectRoot(cwd, manifest);
  const file = cassette.pipelineFile === undefined ? undefined : join(projectRoot, ...cassette.pipelineFile.split('/'));
  return file !== undefined && existsSync(file) ? file : cassette.pipeline;
}
