import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS_MARKER_FILE, installClaudeSkillCommands } from '../../src/adapters/claude/skill-commands.js';
import { isWaveOwnedPath } from '../../src/engine/workspace/wave-owned-paths.js';

function folder(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'wave-cmds-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the required skills' command files in Claude's .claude/commands/", () => {
  it('copies the .md files by name, never over a file of the project, and replaces only its own on the next attempt', async () => {
    const source = folder({ 'speckit.plan.md': 'plan v1', 'speckit.tasks.md': 'tasks', 'notes.txt': 'not a command' });
    const workspace = folder({ '.claude/commands/speckit.tasks.md': "the project's own" });
    const files = ['speckit.plan.md', 'speckit.tasks.md', 'notes.txt'].map((name) => join(source, name));
    expect(await installClaudeSkillCommands(files, workspace)).toEqual(['speckit.plan.md']);
    const commands = join(workspace, '.claude', 'commands');
    expect(readFileSync(join(commands, 'speckit.plan.md'), 'utf8')).toBe('plan v1');
    expect(readFileSync(join(commands, 'speckit.tasks.md'), 'utf8')).toBe("the project's own");
    expect(existsSync(join(commands, 'notes.txt'))).toBe(false);
    expect(readFileSync(join(commands, COMMANDS_MARKER_FILE), 'utf8')).toBe('speckit.plan.md\n');
    // Its own files are Wave's, not the step's work; the project's file is not.
    expect(await isWaveOwnedPath(workspace, '.claude/commands/speckit.plan.md', 'claude')).toBe(true);
    expect(await isWaveOwnedPath(workspace, '.claude/commands/speckit.tasks.md', 'claude')).toBe(false);
    expect(await isWaveOwnedPath(workspace, `.claude/commands/${COMMANDS_MARKER_FILE}`, 'claude')).toBe(true);
    writeFileSync(join(source, 'speckit.plan.md'), 'plan v2');
    await installClaudeSkillCommands(files, workspace);
    expect(readFileSync(join(commands, 'speckit.plan.md'), 'utf8')).toBe('plan v2');
    // No longer wanted: its own file and list go, the project's stays.
    expect(await installClaudeSkillCommands([], workspace)).toEqual([]);
    expect(existsSync(join(commands, 'speckit.plan.md'))).toBe(false);
    expect(existsSync(join(commands, COMMANDS_MARKER_FILE))).toBe(false);
    expect(readFileSync(join(commands, 'speckit.tasks.md'), 'utf8')).toBe("the project's own");
  });

  it('touches nothing when there is nothing to copy and nothing copied before', async () => {
    const workspace = folder();
    expect(await installClaudeSkillCommands([], workspace)).toEqual([]);
    expect(existsSync(join(workspace, '.claude'))).toBe(false);
  });
});
