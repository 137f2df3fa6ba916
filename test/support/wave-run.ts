import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from './cli.js';
import { runDirs } from './runs.js';

/** A finished run of the CLI: its exit code, what it printed, and its folder's record and events. */
export interface Run {
  code: number;
  output: string;
  record: RunRecord;
  dir: string;
  events: Array<Record<string, any>>;
}

/** Reads the run in `dir`, with the exit code and output of the command that made it. */
export function readRun(dir: string, code: number, output: string): Run {
  const record = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecord;
  const events = readFileSync(join(dir, 'events.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { code, output, record, dir, events };
}

/** Runs `wave ...args` in `project` and reads the run it made (the first new run folder). */
export async function waveRun(project: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const before = new Set(runDirs(project));
  const result = await runWave([...args, '--output', 'json'], { cwd: project, timeout: 120_000, env });
  const dir = runDirs(project).find((d) => !before.has(d));
  if (!dir) throw new Error(`no run was made: ${result.stderr}`);
  return readRun(dir, result.code, result.stderr + result.stdout);
}
