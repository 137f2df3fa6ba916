import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import type { AdapterRunConfig } from '../types.js';
import { geminiSettings } from './invocation.js';
import { installStepSkills } from '../skills.js';
import { writeGeminiPolicy } from './policy-file.js';

/** Writes the persona's GEMINI.md into the workspace, its permissions as a policy file and, when isolated, settings.json into the attempt's home. */
export async function prepareGeminiWorkspace(config: AdapterRunConfig): Promise<void> {
  await writeInstructionFile(join(config.workspace, 'GEMINI.md'), config.persona?.systemPrompt ?? '');
  await installStepSkills('gemini', config.skills, config.workspace);
  await writeGeminiPolicy(config);
  if (!config.adapter.isolated) return;
  const dir = join(isolatedHome(config), '.gemini');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'settings.json'), `${JSON.stringify(geminiSettings(config.persona?.temperature), null, 2)}\n`);
}
