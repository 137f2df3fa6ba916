import { basename, extname, relative } from 'node:path';
import type { Located } from '../../config/load/located.js';
import { listPipelineFiles } from '../../config/load/paths.js';
import { fillProjectPlaceholders, projectFacts } from '../../config/load/project-placeholders.js';
import { isRecord } from '../../config/load/value-path.js';
import { pipelineMappingOrEmpty } from '../pipeline-as-written.js';
import { findSkillFolder } from '../../config/checks/skill-refs.js';
import type { Manifest } from '../../config/schema/manifest-schema.js';

/** One skill as `wave list skills` shows it. */
export interface SkillListing {
  /** With `{{ project.<key> }}` filled in. */
  name: string;
  /** Who lists it: `manifest`, `persona <name>`, `pipeline <name>`, `pipeline <name> step <id>`. */
  declaredBy: string[];
  /** The folder holding its SKILL.md, relative to the project; null when there is none. */
  folder: string | null;
}

/** The skills the manifest, its personas, and the project's pipelines and their steps list, by name. */
export function listSkills(manifest: Located<Manifest>): SkillListing[] {
  const project = projectFacts(manifest.value.project);
  const found = new Map<string, Set<string>>();
  const add = (skills: unknown, who: string) => {
    if (!Array.isArray(skills)) return;
    for (const entry of skills) {
      const filled = typeof entry === 'string' ? fillProjectPlaceholders(entry, project) : undefined;
      if (filled && 'text' in filled && filled.text !== '') found.set(filled.text, (found.get(filled.text) ?? new Set()).add(who));
    }
  };
  add(manifest.value.skills, 'manifest');
  for (const [name, persona] of Object.entries(manifest.value.personas ?? {})) add(persona.skills, `persona ${name}`);
  for (const file of listPipelineFiles(manifest.dir)) {
    const pipeline = basename(file, extname(file));
    const raw = pipelineMappingOrEmpty(file);
    add(raw.skills, `pipeline ${pipeline}`);
    for (const step of Array.isArray(raw.steps) ? raw.steps : []) if (isRecord(step)) add(step.skills, `pipeline ${pipeline} step ${String(step.id)}`);
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, who]) => {
      const folder = findSkillFolder(manifest.dir, name);
      return { name, declaredBy: [...who], folder: folder === undefined ? null : relative(manifest.dir, folder) };
    });
}
