import type { ResolvedPersona } from '../../core/resolved-adapter.js';
import { toolPolicy, type ToolRule } from '../../core/tool-rules.js';

/** What Claude Code gets for a persona's permissions: a permission mode, its tool set, and allow/deny rules. */
export interface ClaudePermissions {
  mode: 'default' | 'bypassPermissions';
  /** `--tools`: the built-in tools Claude offers (empty: none); undefined keeps its default set. */
  tools?: string[];
  allow: string[];
  deny: string[];
}

/** Claude's file-writing tools: it matches a path only on `Edit(...)` rules, which cover all of them. */
const FILE_WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** A Wave rule in Claude's syntax: `Write(.agents/output/*)` becomes `Edit(.agents/output/*)`, as Claude ignores `Write(path)`. */
export function claudeRule(rule: ToolRule): string {
  if (rule.argument === undefined) return rule.tool;
  return `${FILE_WRITING_TOOLS.has(rule.tool) ? 'Edit' : rule.tool}(${rule.argument})`;
}

const unique = (values: string[]): string[] => [...new Set(values)];

/**
 * The persona's permissions as Claude enforces them, with Wave's meaning (internal/adapter/permissions.go): `*` in
 * `deny` leaves Claude no tools; no allow list or one with `*` bypasses prompts (nobody can answer them headless)
 * with only the deny rules binding; any other allow list offers just the tools it names (as Wave's agent
 * frontmatter `tools:` does, plus Skill when the step installs skills) in `default` mode, so a call outside its
 * rules is refused.
 */
export function claudePermissions(persona: ResolvedPersona | undefined, installsSkills = false): ClaudePermissions {
  const policy = toolPolicy(persona?.allowedTools ?? [], persona?.deniedTools ?? []);
  if (policy.deniesEverything) return { mode: 'default', tools: [], allow: [], deny: [] };
  const deny = unique(policy.denied.map(claudeRule));
  if (policy.allowsEverything) return { mode: 'bypassPermissions', allow: [], deny };
  const tools = unique([...policy.allowed.map((rule) => rule.tool), ...(installsSkills ? ['Skill'] : [])]);
  return { mode: 'default', tools, allow: unique(policy.allowed.map(claudeRule)), deny };
}

/**
 * The argv that carries them: `--settings` with the rules (flag settings bind in a workspace Claude was never asked
 * to trust, where it ignores the allow rules of the project's `.claude/settings.json`) and `--tools` when narrowed.
 */
export function claudePermissionArgs(permissions: ClaudePermissions): string[] {
  const { allow, deny, tools } = permissions;
  const settings = allow.length > 0 || deny.length > 0 ? ['--settings', JSON.stringify({ permissions: { allow, deny } })] : [];
  return [...(tools ? ['--tools', tools.join(',')] : []), ...settings];
}
