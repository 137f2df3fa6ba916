import type { SourceLocation, WaveError } from '../../core/errors/errors.js';
import type { EnvTaken } from './env-expand.js';
import type { ForgeInfo } from '../../core/forge/forge.js';

/** A checked configuration value that still knows where each of its parts was written. */
export interface Located<T> {
  /** The file as the caller named it (used in every location). */
  file: string;
  /** The absolute folder holding the file; for the manifest, where every relative path resolves from. */
  dir: string;
  value: T;
  /** Position of the node at a path such as ['steps', 0, 'persona'] (falls back to the nearest parent). */
  locate(path: readonly PropertyKey[]): SourceLocation;
  /** Variables the file's `${VAR}` references took from the environment: values the run must redact. */
  envTaken: Readonly<EnvTaken>;
  /** What loads but is reported (a setting nothing in a run uses): printed once before a run. */
  warnings: readonly WaveError[];
  /** A pipeline's: the project's forge its `{{ forge.* }}` resolve to (persona names, templates); absent means local. */
  forge?: ForgeInfo;
}
