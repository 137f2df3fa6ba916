import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_VERSION } from '../package-root.js';

const PACKAGE_NAME = 'wave-pipelines';

/** How a compiled job gets Wave: from the repository's lockfile (`npm ci`), or straight from the registry at this Wave's version. */
export type WaveInstall = { mode: 'lockfile' } | { mode: 'npx'; version: string };

/** The command a job runs Wave with, for each way of installing it. */
export function waveCommand(install: WaveInstall): string {
  // `--no` makes npx fail rather than fetch the registry's unrelated `wave` should the lockfile lose wave-pipelines.
  return install.mode === 'lockfile' ? 'npx --no wave' : `npx --yes ${PACKAGE_NAME}@${install.version}`;
}

/** `npm ci` when the repository at `repoRoot` has a package.json and a lockfile listing wave-pipelines, else npx of the running Wave's version. */
export function waveInstallOf(repoRoot: string): WaveInstall {
  const listed = existsSync(join(repoRoot, 'package.json')) && ['package-lock.json', 'npm-shrinkwrap.json'].some((name) => lockfileLists(join(repoRoot, name)));
  return listed ? { mode: 'lockfile' } : { mode: 'npx', version: PACKAGE_VERSION };
}

/** Whether an npm lockfile installs wave-pipelines (or is wave-pipelines' own); an unreadable one does not. */
function lockfileLists(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; packages?: Record<string, unknown>; dependencies?: Record<string, unknown> };
    return lock.name === PACKAGE_NAME || `node_modules/${PACKAGE_NAME}` in (lock.packages ?? {}) || PACKAGE_NAME in (lock.dependencies ?? {});
  } catch {
    return false;
  }
}
