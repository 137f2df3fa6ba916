import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WaveError, type SourceLocation } from '../errors.js';

/** The folder beside wave.yaml that holds one sub-folder per skill. */
export const SKILLS_SOURCE_FOLDER = 'skills';

/** A skill name is one plain folder name: no separators, no dot-only names. */
const SKILL_NAME = /^(?!\.{1,2}$)[^/\\\0]+$/;

/** Errors for one skill a persona lists: a name that is not a plain folder name, or no `<manifestDir>/skills/<name>/` folder. */
export function skillErrors(skill: unknown, persona: string, manifestDir: string, location: SourceLocation): WaveError[] {
  if (typeof skill !== 'string') return [];
  if (!SKILL_NAME.test(skill)) {
    return [
      new WaveError('wrong_type', `persona \`${persona}\` lists skill \`${skill}\`, which is not a plain folder name`, {
        location,
        hint: `A skill is a folder under ${SKILLS_SOURCE_FOLDER}/ beside wave.yaml, named without slashes.`,
      }),
    ];
  }
  const folder = join(manifestDir, SKILLS_SOURCE_FOLDER, skill);
  if (existsSync(folder) && statSync(folder).isDirectory()) return [];
  return [
    new WaveError('file_not_found', `persona \`${persona}\` lists skill \`${skill}\`, which has no folder (looked for ${folder})`, {
      location,
      hint: `Put the skill in ${SKILLS_SOURCE_FOLDER}/${skill}/ beside wave.yaml, with its SKILL.md.`,
    }),
  ];
}
