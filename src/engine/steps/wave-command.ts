import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';
import { shellQuoted } from '../../core/shell-word.js';

/** The folder of a run holding its `wave` command; steps find it first on PATH. */
export const WAVE_COMMAND_DIR = 'bin';

/** How this Wave's CLI is started, and the host paths it needs to see to start (bound read-only into sandboxes). */
interface CliEntry {
  argv: readonly string[];
  visible: readonly string[];
}

let entry: CliEntry = {
  argv: [process.execPath, join(PACKAGE_ROOT, 'bin', 'wave.cjs')],
  // The launcher, the bundle it runs, and the package.json the bundle finds its root by.
  visible: [join(PACKAGE_ROOT, 'bin'), join(PACKAGE_ROOT, 'dist', 'bundle'), join(PACKAGE_ROOT, 'package.json')],
};

/** Steps started by the GitHub Action get `wave` from the action's own bundle, which runs the CLI when given `--cli`. */
export function useBundledCli(bundleFile: string): void {
  entry = { argv: [process.execPath, bundleFile, '--cli'], visible: [bundleFile, join(PACKAGE_ROOT, 'package.json')] };
}

/** Host paths a sandboxed step must see, read-only, for its `wave` command to run. */
export function waveCommandPaths(): readonly string[] {
  return entry.visible;
}

/** Writes `<runDir>/bin/wave`, which starts this Wave's CLI; returns the folder to put first on steps' PATH. */
export function installWaveCommand(runDir: string): string {
  const dir = join(runDir, WAVE_COMMAND_DIR);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'wave');
  writeFileSync(file, `#!/bin/sh\nexec ${entry.argv.map(shellQuoted).join(' ')} "$@"\n`);
  chmodSync(file, 0o755);
  return dir;
}
