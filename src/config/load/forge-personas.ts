import { FORGE_TYPES, FORGE_VARIABLES, forgeReferences, forgeValues, substituteForge, type ForgeInfo, type ForgeType } from '../../core/forge/forge.js';
import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import type { Pipeline } from '../schema/pipeline-schema.js';
import { didYouMean } from '../checks/suggest.js';

/**
 * How `{{ forge.* }}` in a step's persona name resolves (Wave's ResolvePlaceholders on step.persona, with the
 * forge.* variables InjectForgeVariables sets): `types` are what `{{ forge.type }}` may become — the project's
 * forge for a run; every forge type (or `metadata.forge`'s) for `wave validate` — and `info` gives host, owner, repo.
 */
export interface ForgeResolution {
  types: readonly ForgeType[];
  info: ForgeInfo;
}

/** For a run: the one forge the project has; none when its host is not recognised (then a name using forge.type cannot resolve). */
export function runForge(info: ForgeInfo): ForgeResolution {
  return { types: info.type ? [info.type] : [], info };
}

/** For `wave validate`: every forge type a name may resolve to, or only `metadata.forge`'s when the manifest sets it. */
export function everyForge(info: ForgeInfo, override: string | undefined): ForgeResolution {
  return { types: override ? [info.type ?? 'local'] : FORGE_TYPES, info };
}

/** A persona name with each forge variable replaced for one forge type; undefined when a variable has no value there. */
function resolveFor(name: string, type: ForgeType, info: ForgeInfo): string | undefined {
  const resolved = substituteForge(name, { ...forgeValues(info), 'forge.type': type });
  return forgeReferences(resolved).length ? undefined : resolved;
}

/** Problems of a step's persona name: undeclared, or (with forge variables) resolving to an undeclared persona for some forge. */
export function personaRefErrors(name: string, label: string, personas: readonly string[], forge: ForgeResolution, location: SourceLocation): WaveError[] {
  const references = forgeReferences(name);
  if (references.length === 0) {
    if (personas.includes(name)) return [];
    return [
      new WaveError('unknown_persona', `${label} names persona \`${name}\`, which the manifest does not declare`, {
        location,
        hint: didYouMean(name, personas, 'Declared personas'),
      }),
    ];
  }
  const unknown = references.filter((r) => !(FORGE_VARIABLES as readonly string[]).includes(r));
  if (unknown.length) {
    const allowed = FORGE_VARIABLES.map((v) => `{{ ${v} }}`).join(', ');
    return [
      new WaveError('template_invalid', `${label} names persona \`${name}\`, whose ${unknown.map((u) => `\`${u}\``).join(', ')} a persona name cannot use`, {
        location,
        hint: `A persona name may use ${allowed}.`,
      }),
    ];
  }
  const where = forge.info.remote ? `the git remote ${forge.info.remote}` : 'the project (it has no git remote)';
  if (forge.types.length === 0) {
    return [
      new WaveError('unknown_persona', `${label} names persona \`${name}\`, but the forge of ${where} is not one Wave recognises by its host`, {
        location,
        hint: 'Set `metadata.forge` in wave.yaml (github, gitlab, gitea, forgejo, codeberg, bitbucket or local), or list a self-hosted host in WAVE_GITEA_HOSTS or WAVE_FORGEJO_HOSTS.',
      }),
    ];
  }
  const missing: string[] = [];
  for (const type of forge.types) {
    const resolved = resolveFor(name, type, forge.info);
    if (resolved === undefined) {
      const lacking = references.filter((r) => r !== 'forge.type' && !forgeValues(forge.info)[r as keyof ReturnType<typeof forgeValues>]);
      return [
        new WaveError('unknown_persona', `${label} names persona \`${name}\`, but ${where} gives no ${lacking.map((l) => `\`${l}\``).join(', ')}`, {
          location,
          hint: 'Give the repository a remote such as `git remote add origin https://github.com/<owner>/<repo>.git`, or name the persona without it.',
        }),
      ];
    }
    if (!personas.includes(resolved)) missing.push(`\`${resolved}\` (${type})`);
  }
  if (missing.length === 0) return [];
  const forOne = forge.types.length === 1;
  return [
    new WaveError(
      'unknown_persona',
      forOne
        ? `${label} names persona \`${name}\`, which is ${missing[0]} for this project's forge, and the manifest does not declare it`
        : `${label} names persona \`${name}\`, which resolves to personas the manifest does not declare: ${missing.join(', ')}`,
      {
        location,
        hint: forOne
          ? 'Declare that persona under `personas`, or set `metadata.forge` to the forge whose personas the manifest declares.'
          : 'Declare them under `personas`, or set `metadata.forge` in wave.yaml to the forge this project uses: then only its personas are needed.',
      },
    ),
  ];
}

/** The pipeline with each step's persona name resolved for `info` (a run's forge): what planning and running use. */
export function withForgePersonas(pipeline: Pipeline, info: ForgeInfo): Pipeline {
  const values = forgeValues(info);
  if (!pipeline.steps.some((step) => step.persona && forgeReferences(step.persona).length)) return pipeline;
  return { ...pipeline, steps: pipeline.steps.map((step) => (step.persona ? { ...step, persona: substituteForge(step.persona, values) } : step)) };
}
