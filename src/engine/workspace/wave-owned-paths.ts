import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { WAVE_MARKER } from '../../adapters/instructions.js';
import { ADAPTER_CONFIG_FILES, CLI_COMMANDS_FOLDERS, CLI_SKILLS_FOLDERS, INSTRUCTION_FILES } from '../../adapters/agent-clis.js';
import { SKILL_MARKER_FILE } from '../../adapters/skills.js';
import { COMMANDS_MARKER_FILE, waveCommandNames } from '../../adapters/claude/skill-commands.js';
import type { AdapterType } from '../../core/resolved-adapter.js';

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
  const commands = CLI_COMMANDS_FOLDERS[adapterType];
  if (commands && path.startsWith(`${commands}/`)) {
    const name = path.slice(commands.length + 1);
    return name === COMMANDS_MARKER_FILE || (await waveCommandNames(join(workspace, commands))).has(name);
  }
  return false;
}
