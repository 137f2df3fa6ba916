import type { Located } from '../config/load/load.js';
import { forgeOf, type ForgeInfo } from '../core/forge/forge.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Pipeline } from '../config/schema/pipeline-schema.js';
import type { SourceLocation } from '../core/errors/errors.js';

/** One `token_scopes` entry of a persona some step of the pipeline runs as, and where the manifest writes it. */
export interface PlannedTokenScope {
  readonly persona: string;
  readonly scope: string;
  readonly location: SourceLocation;
  /** Variables the persona sets itself (its `env`): they reach its steps without env_passthrough. */
  readonly personaEnv: readonly string[];
}

/** The forge facts a run's token scope check needs (Wave checks the personas of the steps it runs, not every persona). */
export interface PlannedForge {
  /** The project's forge, found when the pipeline was loaded (its git remote, or `metadata.forge`). */
  readonly info: ForgeInfo;
  /** `metadata.forge`, Wave's override of the forge found from the git remote. */
  readonly override?: string;
  readonly scopes: readonly PlannedTokenScope[];
  /** runtime.timeouts.forge_api_seconds; Wave's default is 60 s. */
  readonly apiTimeoutMs: number;
}

const DEFAULT_FORGE_API_SECONDS = 60;

/** The token scopes of the personas the pipeline's steps name, in step order, each persona once. */
export function planForge(manifest: Located<Manifest>, pipeline: Located<Pipeline>): PlannedForge {
  const m = manifest.value;
  const seen = new Set<string>();
  const scopes: PlannedTokenScope[] = [];
  for (const step of pipeline.value.steps) {
    const name = step.persona;
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const persona = m.personas?.[name];
    const personaEnv = Object.keys(persona?.env ?? {});
    (persona?.token_scopes ?? []).forEach((scope, i) => scopes.push({ persona: name, scope, location: manifest.locate(['personas', name, 'token_scopes', i]), personaEnv }));
  }
  const override = m.metadata?.forge;
  return {
    info: pipeline.forge ?? forgeOf(undefined, override, {}),
    ...(override ? { override } : {}),
    scopes,
    apiTimeoutMs: (m.runtime?.timeouts?.forge_api_seconds ?? DEFAULT_FORGE_API_SECONDS) * 1000,
  };
}
