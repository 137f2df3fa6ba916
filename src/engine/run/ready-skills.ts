import { join } from 'node:path';
import { attemptHome } from '../../sandbox/types.js';

/** A required skill the run's preflight found or installed: what each new workspace runs, and where a sandboxed install lives. */
export interface ReadySkill {
  readonly name: string;
  /** Run in each new workspace of the steps, in the step's sandbox. */
  readonly init?: string;
  /** The HOME its install ran with (in the sandbox): shown read-only to every step, its `.local/bin` first on PATH. */
  readonly home?: string;
}

/** Where a skill's sandboxed install is kept between runs: `<project>/.wave/skills/<name>`; its HOME is the `home` folder inside. */
export function skillInstallDir(projectRoot: string, name: string): string {
  return join(projectRoot, '.wave', 'skills', name);
}

/** The HOME a skill's install runs with, inside its install folder. */
export function skillInstallHome(projectRoot: string, name: string): string {
  return attemptHome(skillInstallDir(projectRoot, name));
}

/** The folders the installed skills' programs are in (`uv tool install`, `pip install --user` and the like put them there). */
export function skillBinDirs(skills: readonly ReadySkill[] | undefined): string[] {
  return (skills ?? []).flatMap((skill) => (skill.home ? [join(skill.home, '.local', 'bin')] : []));
}

/** The HOMEs of the sandboxed installs, which steps see read-only at the same path. */
export function skillHomes(skills: readonly ReadySkill[] | undefined): string[] {
  return (skills ?? []).flatMap((skill) => (skill.home ? [skill.home] : []));
}

/** PATH with the installed skills' folders first. */
export function withSkillPath(path: string | undefined, skills: readonly ReadySkill[] | undefined): string | undefined {
  const dirs = skillBinDirs(skills);
  if (!dirs.length) return path;
  return [...dirs, ...(path ? [path] : [])].join(':');
}
