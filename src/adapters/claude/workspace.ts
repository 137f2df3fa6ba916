import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterRunConfig } from '../types.js';
import { isolatedHome } from '../agent-process.js';
import { readJsonObject } from '../json-file.js';
import { isObject } from '../stream-json.js';
import { installStepSkills } from '../skills.js';
import { installClaudeSkillCommands } from './skill-commands.js';

/** Where Claude Code reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory. */
export const CLAUDE_SKILLS_FOLDER = '.claude/skills';

/** The project settings file Claude Code reads from its working directory. */
export const CLAUDE_SETTINGS_PATH = join('.claude', 'settings.json');

/**
 * Installs the step's skills; inside Wave's sandbox, switches Claude's own bash sandbox off in the workspace's
 * `.claude/settings.json` (keeping its other keys), as the two would nest and fail; creates the isolated config home
 * when the adapter asks for one. The persona's permissions go on the command line (claude/permissions.ts).
 */
export async function prepareClaudeWorkspace(config: AdapterRunConfig): Promise<void> {
  if (config.adapter.isolated) await mkdir(isolatedHome(config), { recursive: true });
  await installStepSkills(CLAUDE_SKILLS_FOLDER, config.skills, config.workspace);
  await installClaudeSkillCommands(config.skillCommands ?? [], config.workspace);
  if (config.spawn === undefined) return;
  const path = join(config.workspace, CLAUDE_SETTINGS_PATH);
  await mkdir(join(config.workspace, '.claude'), { recursive: true });
  const settings = await readJsonObject(path);
  settings.sandbox = { ...(isObject(settings.sandbox) ? settings.sandbox : {}), enabled: false };
  await writeFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}
