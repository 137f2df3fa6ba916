import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterRunConfig } from '../types.js';
import { isolatedHome } from '../agent-process.js';
import { readJsonObject } from '../json-file.js';
import { installPersonaSkills } from '../skills.js';

/** The project settings file Claude Code reads from its working directory. */
export const CLAUDE_SETTINGS_PATH = join('.claude', 'settings.json');

/**
 * Writes the persona's permissions into the workspace's `.claude/settings.json` (keeping its other keys), so
 * Claude itself allows and denies tools; inside Wave's sandbox, switches Claude's own bash sandbox off, as the two
 * would nest and fail; creates the isolated config home when the adapter asks for one.
 */
export async function prepareClaudeWorkspace(config: AdapterRunConfig): Promise<void> {
  if (config.adapter.isolated) await mkdir(isolatedHome(config), { recursive: true });
  await installPersonaSkills('claude', config.persona, config.workspace);
  const persona = config.persona;
  const permissions = persona && (persona.allowedTools.length > 0 || persona.deniedTools.length > 0);
  const sandboxed = config.spawn !== undefined;
  if (!permissions && !sandboxed) return;
  const path = join(config.workspace, CLAUDE_SETTINGS_PATH);
  await mkdir(join(config.workspace, '.claude'), { recursive: true });
  const settings = await readJsonObject(path);
  if (permissions) settings.permissions = { allow: persona.allowedTools, deny: persona.deniedTools };
  if (sandboxed) settings.sandbox = { ...(isObject(settings.sandbox) ? settings.sandbox : {}), enabled: false };
  await writeFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
