import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import type { AdapterRunConfig } from '../types.js';
import { codexSettings } from './invocation.js';
import { installStepSkills } from '../skills.js';

/** Where Codex reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory. */
export const CODEX_SKILLS_FOLDER = '.agents/skills';

/** The file Codex reads the persona's prompt from, in its working directory. */
export const CODEX_INSTRUCTIONS_FILE = 'AGENTS.md';

/** Writes the persona's AGENTS.md into the workspace and, when isolated, config.toml into the attempt's CODEX_HOME. */
export async function prepareCodexWorkspace(config: AdapterRunConfig): Promise<void> {
  await writeInstructionFile(join(config.workspace, CODEX_INSTRUCTIONS_FILE), config.persona?.systemPrompt ?? '');
  await installStepSkills(CODEX_SKILLS_FOLDER, config.skills, config.workspace);
  if (!config.adapter.isolated) return;
  const home = isolatedHome(config);
  await mkdir(home, { recursive: true });
  await writeFile(
    join(home, 'config.toml'),
    codexSettings(config)
      .map(([key, value]) => `${key} = ${value}\n`)
      .join(''),
  );
}
