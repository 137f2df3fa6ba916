import type { Located } from '../config/load/located.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { Pipeline, Step } from '../config/schema/pipeline-schema.js';
import { fillProjectPlaceholders } from '../config/load/project-placeholders.js';
import { findSkillFolder } from '../config/checks/skill-refs.js';
import type { ResolvedSkill } from '../core/resolved-skill.js';
import { WaveError } from '../core/errors/errors.js';

/**
 * The skills a prompt step's agent gets, as Wave's skill.ResolveSkills merges them: the manifest's global `skills`,
 * the persona's, the pipeline's and the step's own, once each, sorted by name. `{{ project.<key> }}` is filled
 * first; a name left empty (an unset key) is dropped, as in Wave. The loader has checked each one is there.
 */
export function resolveStepSkills(
  { value: manifest, dir: manifestDir }: Pick<Located<Manifest>, 'value' | 'dir'>,
  pipeline: Pipeline,
  step: Step,
  personaSkills: readonly string[],
  project: Readonly<Record<string, string>>,
): ResolvedSkill[] {
  const names = new Set<string>();
  for (const entry of [...(manifest.skills ?? []), ...personaSkills, ...(pipeline.skills ?? []), ...(step.skills ?? [])]) {
    const filled = fillProjectPlaceholders(entry, project);
    if ('text' in filled && filled.text !== '') names.add(filled.text);
  }
  return [...names].sort().map((name) => {
    const folder = findSkillFolder(manifestDir, name);
    if (!folder) throw new WaveError('file_not_found', `step \`${step.id}\` needs skill \`${name}\`, which is not in skills/ or .agents/skills/ beside wave.yaml`);
    return { name, folder };
  });
}
