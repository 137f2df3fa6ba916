import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WaveError } from '../core/errors/errors.js';
import type { ResolvedSkill } from '../core/resolved-skill.js';

/** The file Wave leaves in every skill folder it installs: only folders carrying it are ever replaced or removed. */
export const SKILL_MARKER_FILE = '.wave-skill';

/** What one installation did, by skill name. */
export interface SkillInstallReport {
  installed: string[];
  /** Folders of the same name that are not Wave's: left as they are, the skill is not installed. */
  skippedForeign: string[];
  /** Wave-marked folders of skills the persona no longer lists. */
  removed: string[];
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Whether anything (file, folder, link to one) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Copies each skill's folder into `<targetDir>/<name>/` with a marker file. A target folder that exists without the
 * marker is not Wave's and is never touched; one with the marker is replaced. Wave-marked folders of skills not in
 * `skills` are removed. A missing source folder is an error (the loader checks it first).
 */
export async function installSkills(skills: readonly ResolvedSkill[], targetDir: string): Promise<SkillInstallReport> {
  const report: SkillInstallReport = { installed: [], skippedForeign: [], removed: [] };
  const wanted = new Map(skills.map((skill) => [skill.name, skill.folder]));
  if (skills.length === 0 && !(await isDirectory(targetDir))) return report;
  await mkdir(targetDir, { recursive: true });
  for (const entry of await readdir(targetDir)) {
    const folder = join(targetDir, entry);
    if (wanted.has(entry) || !(await pathExists(join(folder, SKILL_MARKER_FILE)))) continue;
    await rm(folder, { recursive: true, force: true });
    report.removed.push(entry);
  }
  for (const [name, source] of wanted) {
    if (!(await isDirectory(source))) throw new WaveError('file_not_found', `skill \`${name}\` has no folder ${source}`);
    const target = join(targetDir, name);
    if (await pathExists(target)) {
      if (!(await pathExists(join(target, SKILL_MARKER_FILE)))) {
        report.skippedForeign.push(name);
        continue;
      }
      await rm(target, { recursive: true, force: true });
    }
    await cp(source, target, { recursive: true });
    await writeFile(join(target, SKILL_MARKER_FILE), "Installed by Wave from the manifest's skills folder; replaced on every run.\n");
    report.installed.push(name);
  }
  return report;
}

/**
 * Installs the step's skills into a CLI's skills folder (relative to `workspace`), removing Wave's that it no longer
 * has; nothing for a CLI without one (`folder` undefined).
 */
export async function installStepSkills(folder: string | undefined, skills: readonly ResolvedSkill[] | undefined, workspace: string): Promise<SkillInstallReport | undefined> {
  if (!folder) return undefined;
  return installSkills(skills ?? [], join(workspace, folder));
}
