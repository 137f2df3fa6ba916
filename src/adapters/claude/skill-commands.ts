import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathExists } from '../skills.js';

/** Where Claude Code reads project slash commands, relative to its working directory. */
export const CLAUDE_COMMANDS_FOLDER = join('.claude', 'commands');

/** Lists the command files Wave copied into the folder, one name a line: only those are ever replaced or removed. */
export const COMMANDS_MARKER_FILE = '.wave-commands';

/** The command file names Wave wrote into `folder` earlier. */
export async function waveCommandNames(folder: string): Promise<Set<string>> {
  const text = await readFile(join(folder, COMMANDS_MARKER_FILE), 'utf8').catch(() => '');
  return new Set(text.split('\n').filter((name) => name !== ''));
}

/**
 * Copies the required skills' command files into the workspace's `.claude/commands/` (Wave's copySkillCommands: the
 * `.md` files, by name). A file of the same name Wave did not write is the project's own and is left as it is;
 * files Wave wrote earlier that are no longer wanted are removed. Returns the names copied.
 */
export async function installClaudeSkillCommands(files: readonly string[], workspace: string): Promise<string[]> {
  const folder = join(workspace, CLAUDE_COMMANDS_FOLDER);
  const earlier = await waveCommandNames(folder);
  const wanted = new Map(files.filter((file) => file.endsWith('.md')).map((file) => [basename(file), file]));
  if (wanted.size === 0 && earlier.size === 0) return [];
  for (const name of earlier) if (!wanted.has(name)) await rm(join(folder, name), { force: true });
  await mkdir(folder, { recursive: true });
  const copied: string[] = [];
  for (const [name, source] of wanted) {
    const target = join(folder, name);
    if (!earlier.has(name) && (await pathExists(target))) continue;
    await copyFile(source, target);
    copied.push(name);
  }
  if (copied.length === 0) await rm(join(folder, COMMANDS_MARKER_FILE), { force: true });
  else await writeFile(join(folder, COMMANDS_MARKER_FILE), `${copied.sort().join('\n')}\n`);
  return copied;
}
