import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WAVE_BIN } from './cli.js';
import { makeProject } from './project.js';
import { latestRun } from './runs.js';
import { waitFor } from './wait.js';

/**
 * A project whose pipeline `long` is a -> b: b prints `attempt-output-<pid>`, appends its pid to b.pids
 * and waits until the file `go` exists in the project, so it runs until the test lets it finish.
 */
export function longRunProject(): string {
  const dir = makeProject({});
  const pipeline = `kind: WavePipeline
metadata: { name: long }
steps:
  - id: a
    exec: { type: command, source: "echo A" }
  - id: b
    dependencies: [a]
    exec: { type: command, source: "echo attempt-output-$$; echo $$ >> ${join(dir, 'b.pids')}; while [ ! -f ${join(dir, 'go')} ]; do sleep 0.1; done; echo B" }
`;
  mkdirSync(join(dir, 'pipelines'));
  writeFileSync(join(dir, 'pipelines', 'long.yaml'), pipeline);
  return dir;
}

/** The pids step b's attempts recorded, in order. */
export function stepPids(dir: string): number[] {
  const file = join(dir, 'b.pids');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : [];
}

/** Lets step b finish. */
export function letFinish(dir: string): void {
  writeFileSync(join(dir, 'go'), '');
}

/** The run folder of the project's latest run. */
export function latestRunDir(dir: string): string {
  return join(dir, '.wave', 'runs', latestRun(dir).id);
}

/** Starts `wave run long` and waits until step b runs and Wave has saved its first output; returns the process and b's pid. */
export async function startLongRun(dir: string, args: string[] = ['--output', 'text']) {
  const child = execa(process.execPath, [WAVE_BIN, 'run', 'long', ...args], { cwd: dir, reject: false, stdin: 'ignore', env: { NO_COLOR: '1' } });
  const bPid = await waitFor(() => stepPids(dir)[0], 'step b to start');
  const stdout = () => join(latestRunDir(dir), 'steps', 'b', 'attempt-1', 'stdout');
  await waitFor(() => existsSync(stdout()) && readFileSync(stdout(), 'utf8').includes('attempt-output-'), "Wave to save step b's output");
  return { child, bPid };
}
