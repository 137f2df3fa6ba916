import { join } from 'node:path';

/** Where the runs of the manifest in `manifestDir` live: `<manifestDir>/.wave/runs`. */
export function runsRootOf(manifestDir: string): string {
  return join(manifestDir, '.wave', 'runs');
}

/** Where the cassettes replayed in the project in `manifestDir` are unpacked: `<manifestDir>/.wave/cassettes`. */
export function cassettesRootOf(manifestDir: string): string {
  return join(manifestDir, '.wave', 'cassettes');
}

/** Where injected artifacts land in a consumer's workspace (of a project in this layout). */
export const INJECTED_ARTIFACTS_DIR = join('.wave', 'artifacts');

/** Where Wave puts them (internal/pipeline/executor_artifacts.go, injectArtifacts): what the prompts of an `.agents/` project read. */
export const WAVE_INJECTED_ARTIFACTS_DIR = join('.agents', 'artifacts');
