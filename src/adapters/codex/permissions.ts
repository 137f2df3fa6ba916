import { toolPolicy, type ToolPolicy, type ToolRule } from '../../core/tool-rules.js';

/** Persona tool names (Claude's, OpenCode's) by what Codex can switch off: its shell, its file edits, its web search. */
const CODEX_SWITCHES: Record<string, 'shell' | 'writes' | 'web'> = {
  bash: 'shell',
  shell: 'shell',
  write: 'writes',
  edit: 'writes',
  multiedit: 'writes',
  notebookedit: 'writes',
  websearch: 'web',
};

type Switch = 'shell' | 'writes' | 'web';
const switchOf = (rule: ToolRule): Switch | undefined => CODEX_SWITCHES[rule.tool.toLowerCase()];

/** Whether the persona may use what a Codex switch turns on: not denied (deny wins), and allowed by the allow list. */
function permits(policy: ToolPolicy, what: Switch): boolean {
  if (policy.deniesEverything || policy.denied.some((rule) => rule.argument === undefined && switchOf(rule) === what)) return false;
  return policy.allowsEverything || policy.allowed.some((rule) => switchOf(rule) === what);
}

/**
 * Codex settings (`key`, TOML value) for a persona's permissions. Codex has no per-tool rules, only switches: its
 * shell tools off when Bash is not permitted, web search off when WebSearch is not, and — as its apply_patch cannot be
 * switched off alone — its read-only sandbox when no file-writing tool is (the shell then cannot write either).
 * Argument patterns it cannot enforce are refused before a run (config/codex-permission-checks.ts).
 */
export function codexPermissionSettings(allowed: readonly string[], denied: readonly string[]): Array<[string, string | boolean]> {
  const policy = toolPolicy(allowed, denied);
  return [
    ...(permits(policy, 'shell')
      ? []
      : ([
          ['features.shell_tool', false],
          ['features.unified_exec', false],
        ] as Array<[string, boolean]>)),
    ...(permits(policy, 'writes') ? [] : ([['sandbox_mode', 'read-only']] as Array<[string, string]>)),
    ...(permits(policy, 'web') ? [] : ([['web_search', 'disabled']] as Array<[string, string]>)),
  ];
}
