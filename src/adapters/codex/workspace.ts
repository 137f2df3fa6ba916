import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import type { AdapterRunConfig } from '../types.js';
import { codexSettings } from './invocation.js';
import { installStepSkills } from '../skills.js';

/** Writes the persona's AGENTS.md into the workspace and, when isolated, config.toml into the attempt's CODEX_HOME. */
export async function prepareCodexWorkspace(config: AdapterRunConfig): Promise<void> {
  await writeInstructionFile(join(config.workspace, 'AGENTS.md'), config.persona?.systemPrompt ?? '');
  await installStepSkills('codex', config.skills, config.workspace);
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
