import { join } from 'node:path';

/** Where the runs of the manifest in `manifestDir` live: `<manifestDir>/.wave/runs`. */
export function runsRootOf(manifestDir: string): string {
  return join(manifestDir, '.wave', 'runs');
}

/** Where injected artifacts land in a consumer's workspace. */
export const INJECTED_ARTIFACTS_DIR = join('.wave', 'artifacts');
