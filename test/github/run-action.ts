import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { ROOT } from '../support/cli.js';

/** The committed bundle action.yml runs. */
export const ACTION_ENTRY = join(ROOT, 'action/index.cjs');

export interface ActionRun {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Starts the action's entry as a runner does: INPUT_* variables, and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV files. */
export function startAction(project: string, inputs: Record<string, string>, env: Record<string, string> = {}) {
  const files = mkdtempSync(join(tmpdir(), 'wave-action-'));
  const paths = { GITHUB_OUTPUT: join(files, 'output'), GITHUB_STEP_SUMMARY: join(files, 'summary'), GITHUB_ENV: join(files, 'env') };
  for (const path of Object.values(paths)) writeFileSync(path, '');
  // @actions/core reads INPUT_<NAME>, upper-cased with spaces as underscores (dashes stay).
  const inputEnv = Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value]));
  const child = execa(process.execPath, [ACTION_ENTRY], {
    cwd: project,
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
    // The workflow this suite itself may run in is not the one a test's action is in: a test names its own.
    env: { NO_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: project, GITHUB_REPOSITORY: '', GITHUB_WORKFLOW_REF: '', ...paths, ...inputEnv, ...env },
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  /** What the action printed so far. */
  const stdoutSoFar = () => printed;
  return { child, stdoutSoFar, finished: finish(child, paths) };
}

/** Resolves once `condition` holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the action to its end. */
export function runAction(project: string, inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  return startAction(project, inputs, env).finished;
}

async function finish(child: ResultPromise, paths: { GITHUB_OUTPUT: string; GITHUB_STEP_SUMMARY: string }): Promise<ActionRun> {
  const result = await child;
  return {
    code: result.exitCode ?? -1,
    stdout: String(result.stdout),
    outputs: parseOutputFile(readFileSync(paths.GITHUB_OUTPUT, 'utf8')),
    summary: readFileSync(paths.GITHUB_STEP_SUMMARY, 'utf8'),
  };
}

/** The `name<<delimiter` blocks @actions/core writes to GITHUB_OUTPUT. */
function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^(.+?)<<(.+)\n([\s\S]*?)\n?\2$/gm;
  for (const match of text.matchAll(pattern)) outputs[match[1]!] = match[3]!;
  return outputs;
}

/** The 1-based line of the first line of `text` containing `needle`. */
export function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

/** The log without the lines that stop and resume workflow commands around what steps print. */
export function withoutStopCommands(stdout: string): string {
  const tokens = [...stdout.matchAll(/^::stop-commands::([0-9a-f]+)$/gm)].map((m) => m[1]!);
  return stdout
    .split('\n')
    .filter((line) => !tokens.some((token) => line === `::stop-commands::${token}` || line === `::${token}::`))
    .join('\n');
}
