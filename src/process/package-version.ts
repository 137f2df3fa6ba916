import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** How many folders above a binary's real file its package.json may sit (cli.js, bin/x.js, dist/bin/x.js). */
const LEVELS = 4;

const known = new Map<string, string | undefined>();

/**
 * `<name>@<version>` of the npm package that ships an executable: the package.json above the binary's real file whose
 * `bin` names that file. Read from disk, never by running `--version`, and kept per path for the process's life.
 * Undefined for a binary no package ships (a script beside some unrelated package.json is not that package's).
 */
export function packageVersionOf(binaryPath: string): string | undefined {
  if (!known.has(binaryPath)) known.set(binaryPath, readPackageVersion(binaryPath));
  return known.get(binaryPath);
}

function readPackageVersion(binaryPath: string): string | undefined {
  let file: string;
  try {
    file = realpathSync(binaryPath);
  } catch {
    return undefined;
  }
  let dir = dirname(file);
  for (let level = 0; level < LEVELS; level += 1) {
    const found = packageShipping(dir, file);
    if (found) return found;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function packageShipping(dir: string, file: string): string | undefined {
  let manifest: { name?: unknown; version?: unknown; bin?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  const { name, version, bin } = manifest;
  if (typeof name !== 'string' || typeof version !== 'string') return undefined;
  const bins = typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : [];
  return bins.some((path) => typeof path === 'string' && resolve(dir, path) === file) ? `${name}@${version}` : undefined;
}
