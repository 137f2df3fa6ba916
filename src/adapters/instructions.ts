import { readFile, writeFile } from 'node:fs/promises';

/** The first line of every instruction file Wave writes; a file without it is not Wave's and is left alone. */
export const WAVE_MARKER = '<!-- written by wave: the persona prompt of this step -->';

/**
 * Writes the persona prompt to an instruction file the CLI reads (AGENTS.md, GEMINI.md). A file that exists and
 * is not Wave's (no marker) is never touched; an empty prompt writes nothing.
 */
export async function writeInstructionFile(path: string, prompt: string): Promise<boolean> {
  if (prompt.trim() === '') return false;
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing !== undefined && !existing.startsWith(WAVE_MARKER)) return false;
  await writeFile(path, `${WAVE_MARKER}\n${prompt.trimEnd()}\n`);
  return true;
}
