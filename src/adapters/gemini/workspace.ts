import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import type { AdapterRunConfig } from '../types.js';
import { geminiSettings } from './invocation.js';
import { installStepSkills } from '../skills.js';
import { writeGeminiPolicy } from './policy-file.js';

/** Where Gemini CLI reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory. */
export const GEMINI_SKILLS_FOLDER = '.gemini/skills';

/** The file Gemini CLI reads the persona's prompt from, in its working directory. */
export const GEMINI_INSTRUCTIONS_FILE = 'GEMINI.md';

/** Writes the persona's GEMINI.md into the workspace, its permissions as a policy file and, when isolated, settings.json into the attempt's home. */
export async function prepareGeminiWorkspace(config: AdapterRunConfig): Promise<void> {
  await writeInstructionFile(join(config.workspace, GEMINI_INSTRUCTIONS_FILE), config.persona?.systemPrompt ?? '');
  await installStepSkills(GEMINI_SKILLS_FOLDER, config.skills, config.workspace);
  await writeGeminiPolicy(config);
  if (!config.adapter.isolated) return;
  const dir = join(isolatedHome(config), '.gemini');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'settings.json'), `${JSON.stringify(geminiSettings(config.persona?.temperature), null, 2)}\n`);
}
