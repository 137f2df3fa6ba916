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
  const match = /^([A-Za-z]+)(?:\((.*)\))?$/.exec(rule.trim());
  const type = match ? CURSOR_TYPES[match[1]!.toLowerCase()] : undefined;
  if (!match || !type) return undefined;
  const pattern = match[2]?.trim();
  if (type === 'Shell') return `Shell(${pattern?.split(/\s+/)[0] || '*'})`;
  return `${type}(${pattern || '**'})`;
}

/** The persona's allowed and denied tools as Cursor permission tokens, without duplicates. */
export function cursorPermissions(allowed: readonly string[], denied: readonly string[]): CursorPermissions {
  const tokens = (rules: readonly string[]) => [...new Set(rules.map(cursorPermissionToken).filter((token): token is string => token !== undefined))];
  return { allow: tokens(allowed), deny: tokens(denied) };
}
