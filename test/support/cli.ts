import { execa, type Options } from 'execa';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The built CLI entry (npm test builds dist/ first). */
export const WAVE_BIN = fileURLToPath(new URL('../../bin/wave.cjs', import.meta.url));

/** Starts `wave ...args` as a real process and returns it while it runs (to watch its output, or stop it); never rejects on a non-zero exit. */
export function startWave(args: string[], options: Options = {}) {
  return execa(process.execPath, [WAVE_BIN, ...args], {
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
    ...options,
    env: { NO_COLOR: '1', ...options.env },
  });
}

/** Runs `wave ...args` as a real process; never throws on a non-zero exit. */
export async function runWave(args: string[], options: Options = {}) {
  const result = await startWave(args, options);
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
