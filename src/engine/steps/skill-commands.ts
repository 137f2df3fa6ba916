import type { PlannedRequires } from '../../plan/plan-requires.js';
import { globFiles } from '../workspace/path-glob.js';

/** The command files of the pipeline's required skills (each skill's commands_glob, from the project folder), once each. */
export async function requiredSkillCommands(requires: PlannedRequires, projectRoot: string): Promise<string[]> {
  const files = new Set<string>();
  for (const skill of requires.skills) for (const file of await globFiles(projectRoot, skill.commandsGlob)) files.add(file);
  return [...files];
}
