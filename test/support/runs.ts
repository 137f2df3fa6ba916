import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/state/run-record.js';

/** The run folders of a project, oldest first. */
export function runDirs(project: string): string[] {
  const root = join(project, '.wave', 'runs');
  try {
    return readdirSync(root).sort().map((id) => join(root, id));
  } catch {
    return [];
  }
}

/** The run.json of the project's only (or latest) run. */
export function latestRun(project: string): RunRecord {
  const dirs = runDirs(project);
  if (!dirs.length) throw new Error(`no run in ${project}`);
  return JSON.parse(readFileSync(join(dirs.at(-1)!, 'run.json'), 'utf8')) as RunRecord;
}
