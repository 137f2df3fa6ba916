import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'wave-pipelines';

/** The folder of Wave's own package.json, found by walking up: the same from dist/ files and from the bundle. */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** Wave's package folder (bin/, dist/, schemas/, node_modules/). */
export const PACKAGE_ROOT = findPackageRoot();

/** Wave's version, from its package.json. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
