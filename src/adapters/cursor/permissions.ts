import { matchesEveryTool, parseToolRule } from '../../core/tool-rules.js';

/** The `permissions` block of Cursor's project config `.cursor/cli.json`. */
export interface CursorPermissions {
  allow: string[];
  deny: string[];
}

/** Persona tool names (Claude's, OpenCode's, Cursor's own) by the Cursor permission type that covers them. */
const CURSOR_TYPES: Record<string, 'Shell' | 'Read' | 'Write'> = {
  bash: 'Shell',
  shell: 'Shell',
  read: 'Read',
  glob: 'Read',
  grep: 'Read',
  ls: 'Read',
  edit: 'Write',
  write: 'Write',
  multiedit: 'Write',
  notebookedit: 'Write',
};

/**
 * One persona rule as a Cursor permission token, or undefined for a tool Cursor has no permission for.
 * `Bash(git push *)` becomes `Shell(git)`: Cursor matches a command by its first word only.
 */
export function cursorPermissionToken(rule: string): string | undefined {
  const { tool, argument } = parseToolRule(rule);
  const type = CURSOR_TYPES[tool.toLowerCase()];
  if (!type) return undefined;
  const pattern = argument?.trim();
  if (type === 'Shell') return `Shell(${pattern?.split(/\s+/)[0] || '*'})`;
  return `${type}(${pattern || '**'})`;
}

/** Wave's `*` (every tool) as Cursor tokens: every command, every file read and write. */
const EVERY_TOOL = ['Shell(*)', 'Read(**)', 'Write(**)'];

/** The persona's allowed and denied tools as Cursor permission tokens, without duplicates; `*` stands for every tool. */
export function cursorPermissions(allowed: readonly string[], denied: readonly string[]): CursorPermissions {
  const tokens = (rules: readonly string[]) => [
    ...new Set(
      rules.flatMap((rule) => (matchesEveryTool(parseToolRule(rule)) ? EVERY_TOOL : [cursorPermissionToken(rule)]).filter((token): token is string => token !== undefined)),
    ),
  ];
  return { allow: tokens(allowed), deny: tokens(denied) };
}
