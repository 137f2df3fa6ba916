import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { WAVE_MARKER } from '../../adapters/instructions.js';
import { CLI_SKILLS_FOLDERS, SKILL_MARKER_FILE } from '../../adapters/skills.js';
import { CLAUDE_COMMANDS_FOLDER, COMMANDS_MARKER_FILE, waveCommandNames } from '../../adapters/claude/skill-commands.js';
import type { AdapterType } from '../../core/resolved-adapter.js';

/** The configuration files each adapter writes into the workspace for its CLI. */
const ADAPTER_CONFIG_FILES: Readonly<Partial<Record<AdapterType, readonly string[]>>> = {
  claude: ['.claude/settings.json'],
  opencode: ['opencode.json'],
  cursor: ['.cursor/cli.json'],
};

/** Instruction files Wave writes, recognised by their first line. */
const INSTRUCTION_FILES = new Set(['AGENTS.md', 'GEMINI.md']);

async function startsWithMarker(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(WAVE_MARKER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8') === WAVE_MARKER;
  } finally {
    await handle.close();
  }
}

/**
 * Whether `path` (relative to `workspace`, `/`-separated) is a file Wave itself writes there, not the step's work:
 * `.wave/` (injected artifacts, command values), the adapter's CLI configuration, Wave's instruction files and skills.
 */
export async function isWaveOwnedPath(workspace: string, path: string, adapterType: AdapterType): Promise<boolean> {
  if (path === '.wave' || path.startsWith('.wave/')) return true;
  if (ADAPTER_CONFIG_FILES[adapterType]?.includes(path)) return true;
  if (INSTRUCTION_FILES.has(path)) return startsWithMarker(join(workspace, path));
  const skills = CLI_SKILLS_FOLDERS[adapterType];
  if (skills && path.startsWith(`${skills}/`)) {
    const name = path.slice(skills.length + 1).split('/')[0]!;
    return existsSync(join(workspace, skills, name, SKILL_MARKER_FILE));
  }
  // The command files of the pipeline's required skills, as Wave's list in that folder names them.
  if (adapterType === 'claude' && path.startsWith(`${CLAUDE_COMMANDS_FOLDER}/`)) {
    const name = path.slice(CLAUDE_COMMANDS_FOLDER.length + 1);
    return name === COMMANDS_MARKER_FILE || (await waveCommandNames(join(workspace, CLAUDE_COMMANDS_FOLDER))).has(name);
  }
  return false;
}
