import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { toolPolicy, type ToolRule } from '../../core/tool-rules.js';

type Rule = 'allow' | 'deny';
/** One entry of opencode.json's `permission` block: a rule for every call, or rules by argument pattern. */
export type OpenCodePermissionValue = Rule | Record<string, Rule>;

/** OpenCode's permission names for Claude-style persona tool names (OpenCode's own lowercase names pass through). */
const PERMISSION_NAMES: Record<string, string> = {
  bash: 'bash',
  read: 'read',
  edit: 'edit',
  write: 'edit',
  multiedit: 'edit',
  notebookedit: 'edit',
  glob: 'glob',
  grep: 'grep',
  ls: 'list',
  webfetch: 'webfetch',
  websearch: 'websearch',
  task: 'task',
  agent: 'task',
  todowrite: 'todowrite',
  skill: 'skill',
};

const permissionName = (rule: ToolRule): string => PERMISSION_NAMES[rule.tool.toLowerCase()] ?? rule.tool.toLowerCase();

/** The permissions whose patterns OpenCode matches against a file's path relative to its worktree. */
const PATH_PERMISSIONS = new Set(['read', 'edit']);

/** The workspace and each folder above it, up to the root. */
function selfAndAncestors(folder: string): string[] {
  const folders = [folder];
  while (dirname(folders.at(-1)!) !== folders.at(-1)) folders.push(dirname(folders.at(-1)!));
  return folders;
}

/**
 * A path pattern of the workspace as OpenCode sees it: relative to its worktree, which is the git root above the
 * workspace or `/` outside any repository. Wave cannot tell which, so the pattern is given from each folder up.
 */
export function worktreePathPatterns(pattern: string, workspace: string): string[] {
  const patterns = selfAndAncestors(workspace).map((root) => (isAbsolute(pattern) ? relative(root, pattern) : join(relative(root, workspace), pattern)));
  return [...new Set(patterns.filter((p) => p !== '' && !p.startsWith(`..${sep}`) && p !== '..').map((p) => p.split(sep).join('/')))];
}

/** Sets `action` for a rule, after what is there: OpenCode applies the last rule that matches a call. */
function addRule(permission: Record<string, OpenCodePermissionValue>, rule: ToolRule, action: Rule, otherwise: Rule, workspace: string | undefined): void {
  const name = permissionName(rule);
  if (rule.argument === undefined) {
    permission[name] = action;
    return;
  }
  const current = permission[name];
  const patterns = typeof current === 'object' ? current : { '*': current ?? otherwise };
  const added = workspace && PATH_PERMISSIONS.has(name) ? worktreePathPatterns(rule.argument, workspace) : [rule.argument];
  // A pattern set before moves to the end with its new action, so the newest rule is the last one OpenCode finds.
  const kept = Object.entries(patterns).filter(([pattern]) => !added.includes(pattern));
  permission[name] = Object.fromEntries([...kept, ...added.map((pattern) => [pattern, action] as const)]);
}

/**
 * The `permission` block of opencode.json with Wave's meaning (internal/adapter/permissions.go): `*` in `deny` denies
 * every permission; no allow list (or one with `*`) leaves OpenCode's defaults allowing; any other allow list
 * denies everything (`"*": "deny"`) but its rules, and `skill` when the step installs skills. Deny rules come last,
 * so they win, as Wave checks deny first. Path patterns of `read` and `edit` are given as OpenCode matches them
 * when the workspace is known (worktreePathPatterns).
 */
export function openCodePermissions(allowed: readonly string[], denied: readonly string[], installsSkills = false, workspace?: string): Record<string, OpenCodePermissionValue> {
  const policy = toolPolicy(allowed, denied);
  if (policy.deniesEverything) return { '*': 'deny' };
  // Not `"*": "allow"`: that would also allow the `question` and plan tools, which wait for a person.
  const permission: Record<string, OpenCodePermissionValue> = policy.allowsEverything ? { bash: 'allow', edit: 'allow', webfetch: 'allow' } : { '*': 'deny' };
  const otherwise: Rule = policy.allowsEverything ? 'allow' : 'deny';
  if (!policy.allowsEverything) {
    for (const rule of policy.allowed) addRule(permission, rule, 'allow', otherwise, workspace);
    if (installsSkills) permission.skill = 'allow';
  }
  for (const rule of policy.denied) addRule(permission, rule, 'deny', otherwise, workspace);
  return permission;
}
