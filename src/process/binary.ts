import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Wave's own package folder, whose node_modules/.bin holds CLIs installed as its dependencies. */
const WAVE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folders searched for a bare binary name: PATH, then ./node_modules/.bin, then Wave's own. */
export function binarySearchPath(env: Record<string, string | undefined>, cwd: string = process.cwd()): string[] {
  const fromPath = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  return [...new Set([...fromPath, join(cwd, 'node_modules', '.bin'), join(WAVE_ROOT, 'node_modules', '.bin')])];
}

/**
 * The absolute path of an executable: a path containing "/" is taken as it is (relative to cwd), a bare name
 * is looked up along binarySearchPath. Undefined when nothing executable is found.
 */
export function resolveBinary(binary: string, env: Record<string, string | undefined>, cwd: string = process.cwd()): string | undefined {
  if (binary.includes('/')) {
    const path = isAbsolute(binary) ? binary : resolve(cwd, binary);
    return isExecutable(path) ? path : undefined;
  }
  for (const dir of binarySearchPath(env, cwd)) {
    const candidate = join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}
