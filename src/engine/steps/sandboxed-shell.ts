import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redactor } from '../../redact.js';
import type { Sandbox, SandboxScope } from '../../sandbox/types.js';

/** One shell command run inside a sandbox (never on the host): where, with what, and where its output is kept. */
export interface SandboxedShell {
  sandbox: Sandbox;
  scope: SandboxScope;
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Its output goes to `<logDir>/<name>.stdout` and `.stderr`. */
  logDir: string;
  name: string;
  redactor: Redactor;
  graceMs: number;
  /** How long it may run before it is stopped. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Whether the command exited 0 within its time limit, and if not, why, with the last line it printed. */
export async function runSandboxedShell(run: SandboxedShell): Promise<{ ok: boolean; detail: string }> {
  if (run.sandbox.backend === 'none') return { ok: false, detail: 'it runs only in a sandbox, and the run has none' };
  await mkdir(run.logDir, { recursive: true });
  const limit = AbortSignal.timeout(run.timeoutMs);
  const signal = run.signal ? AbortSignal.any([run.signal, limit]) : limit;
  const spec = {
    command: '/bin/sh',
    args: ['-c', run.command],
    cwd: run.cwd,
    env: run.env,
    stdoutPath: join(run.logDir, `${run.name}.stdout`),
    stderrPath: join(run.logDir, `${run.name}.stderr`),
    redactor: run.redactor,
    graceMs: run.graceMs,
  };
  const result = await run.sandbox.spawn(spec, run.scope, signal);
  if (result.exitCode === 0 && !result.aborted) return { ok: true, detail: `\`${run.command}\` succeeded` };
  const why = limit.aborted
    ? `did not finish within ${run.timeoutMs / 1000} s (runtime.timeouts.skill_install_seconds)`
    : result.aborted
      ? 'was stopped'
      : result.spawnError
        ? `could not start: ${result.spawnError.message}`
        : result.exitCode !== null
          ? `exited ${result.exitCode}`
          : `ended by ${result.signal ?? 'a signal'}`;
  const line = result.tail.trim().split('\n').at(-1)?.trim() ?? '';
  return { ok: false, detail: `\`${run.command}\` ${why}${line ? `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}` : ''}` };
}
