import { isAbsolute, resolve } from 'node:path';
import { terminateGroup, trackGroup } from '../process/process-group.js';
import { durationMs } from '../config/schema/common-schema.js';
import type { PlannedContract, CheckResult, CheckEnvironment } from './types.js';

/** A test command runs at most this long unless the contract says otherwise. */
export const DEFAULT_TEST_TIMEOUT_MS = 10 * 60_000;
/** How much of a failing command's output goes into the errors (and so into a retry's prompt). */
export const TEST_OUTPUT_CHARS = 3000;

/** The folder a test_suite command runs in: workspace (default), project_root, or a path. */
export function testSuiteDir(contract: PlannedContract, workspace: string, projectRoot: string): string {
  const dir = contract.dir ?? 'workspace';
  if (dir === 'workspace') return workspace;
  if (dir === 'project_root') return projectRoot;
  return isAbsolute(dir) ? dir : resolve(workspace, dir);
}

/** Runs the contract's command through /bin/sh; a non-zero exit, a timeout or a missing command fails. */
export async function checkTestSuite(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  const command = contract.command ?? '';
  if (!command.trim()) return { passed: false, errors: ['test_suite contract has no command'] };
  const timeout = contract.timeout !== undefined ? durationMs(contract.timeout) : DEFAULT_TEST_TIMEOUT_MS;
  // Loaded on first use: execa takes a noticeable part of a cold start, and most runs never get here.
  const { execa } = await import('execa');
  // Its own process group, so a timeout or cancel also stops what the command started (test runners fork).
  const child = execa('/bin/sh', ['-c', command], {
    cwd: testSuiteDir(contract, env.workspace, env.projectRoot),
    env: env.env,
    extendEnv: false,
    all: true,
    reject: false,
    stdin: 'ignore',
    detached: true,
  });
  const untrack = child.pid !== undefined ? trackGroup(child.pid) : () => {};
  let timedOut = false;
  const stop = () => void (child.pid !== undefined && terminateGroup(child.pid, 2000));
  const timer = setTimeout(() => ((timedOut = true), stop()), timeout);
  env.signal.addEventListener('abort', stop, { once: true });
  if (env.signal.aborted) stop();
  const result = await child;
  clearTimeout(timer);
  env.signal.removeEventListener('abort', stop);
  untrack();
  const output = String(result.all ?? '');
  if (result.exitCode === 0) return { passed: true, errors: [], output };
  const why = timedOut
    ? `\`${command}\` ran past ${Math.round(timeout / 1000)}s`
    : result.exitCode === undefined
      ? `\`${command}\` could not run: ${result.shortMessage}`
      : `\`${command}\` exited with code ${result.exitCode}`;
  const tail = output.slice(-TEST_OUTPUT_CHARS).trimEnd();
  return { passed: false, errors: tail ? [why, `output:\n${tail}`] : [why], output };
}
