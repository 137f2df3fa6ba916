import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';

/** The run folders of a project, by name. */
export function runDirs(project: string): string[] {
  const root = join(project, '.wave', 'runs');
  try {
    return readdirSync(root)
      .sort()
      .map((id) => join(root, id));
  } catch {
    return [];
  }
}

/** The run.json of the project's most recently started run. */
export function latestRun(project: string): RunRecord {
  const runs = runDirs(project).map((dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord);
  if (!runs.length) throw new Error(`no run in ${project}`);
  return runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt)).at(-1)!;
}

/** The events.ndjson of the project's most recently started run, each line parsed. */
export function latestEvents(project: string): RunEvent[] {
  return readFileSync(join(project, '.wave', 'runs', latestRun(project).id, 'events.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}
