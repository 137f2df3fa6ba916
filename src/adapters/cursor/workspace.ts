import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import { readJsonObject } from '../json-file.js';
import type { AdapterRunConfig } from '../types.js';
import { cursorPermissions } from './permissions.js';

/** The file Cursor reads the persona's prompt from, in its working directory. */
export const CURSOR_INSTRUCTIONS_FILE = 'AGENTS.md';

/** Cursor's project config, read from the working directory; Wave sets only its `permissions`. */
export const CURSOR_CONFIG_PATH = join('.cursor', 'cli.json');

/**
 * Writes the persona's AGENTS.md (Cursor reads it as a rule) and its permissions into `.cursor/cli.json` (keeping
 * the file's other keys); creates the isolated config home when the adapter asks for one.
 */
export async function prepareCursorWorkspace(config: AdapterRunConfig): Promise<void> {
  if (config.adapter.isolated) await mkdir(isolatedHome(config), { recursive: true });
  await writeInstructionFile(join(config.workspace, CURSOR_INSTRUCTIONS_FILE), config.persona?.systemPrompt ?? '');
  const persona = config.persona;
  if (!persona || (persona.allowedTools.length === 0 && persona.deniedTools.length === 0)) return;
  const path = join(config.workspace, CURSOR_CONFIG_PATH);
  await mkdir(join(config.workspace, '.cursor'), { recursive: true });
  const settings = await readJsonObject(path);
  settings.permissions = cursorPermissions(persona.allowedTools, persona.deniedTools);
  await writeFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}
