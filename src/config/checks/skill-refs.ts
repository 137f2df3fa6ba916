import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WaveError, type SourceLocation } from '../../core/errors/errors.js';

/** The folder beside wave.yaml that holds one sub-folder per skill (Wave's first skill source). */
export const SKILLS_SOURCE_FOLDER = 'skills';

/** Where skills are looked for, beside wave.yaml, first match wins: Wave's DefaultSources (`skills/` before `.agents/skills/`). */
export const SKILL_SOURCE_FOLDERS: readonly string[] = Object.freeze([SKILLS_SOURCE_FOLDER, join('.agents', 'skills')]);

/** The file that makes a folder a skill, as the agent CLIs and Wave's skill store read it. */
export const SKILL_FILE = 'SKILL.md';

/** A skill name is one plain folder name: no separators, no dot-only names. */
const SKILL_NAME = /^(?!\.{1,2}$)[^/\\\0]+$/;

/** Whether `name` can name a skill folder. */
export function isSkillName(name: string): boolean {
  return SKILL_NAME.test(name);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The folder of skill `name`: the first of `skills/<name>/` and `.agents/skills/<name>/` beside wave.yaml that holds a SKILL.md. */
export function findSkillFolder(manifestDir: string, name: string): string | undefined {
  if (!isSkillName(name)) return undefined;
  return SKILL_SOURCE_FOLDERS.map((source) => join(manifestDir, source, name)).find((folder) => isFile(join(folder, SKILL_FILE)));
}

/** Errors for one skill `who` lists (a persona, the pipeline, a step): a name that is not a plain folder name, or no folder holding its SKILL.md. */
export function skillRefErrors(skill: unknown, who: string, manifestDir: string, location: SourceLocation): WaveError[] {
  if (typeof skill !== 'string') return [];
  if (!isSkillName(skill)) {
    return [
      new WaveError('wrong_type', `${who} lists skill \`${skill}\`, which is not a plain folder name`, {
        location,
        hint: `A skill is a folder under ${SKILLS_SOURCE_FOLDER}/ or .agents/skills/ beside wave.yaml, named without slashes.`,
      }),
    ];
  }
  if (findSkillFolder(manifestDir, skill)) return [];
  const lookedAt = SKILL_SOURCE_FOLDERS.map((source) => join(manifestDir, source, skill, SKILL_FILE)).join(' and ');
  return [
    new WaveError('file_not_found', `${who} lists skill \`${skill}\`, which is not there (looked for ${lookedAt})`, {
      location,
      hint: `Put the skill in ${SKILLS_SOURCE_FOLDER}/${skill}/ or .agents/skills/${skill}/ beside wave.yaml, with its ${SKILL_FILE}.`,
    }),
  ];
}

/** Errors for one skill a persona lists. */
export function skillErrors(skill: unknown, persona: string, manifestDir: string, location: SourceLocation): WaveError[] {
  return skillRefErrors(skill, `persona \`${persona}\``, manifestDir, location);
}
