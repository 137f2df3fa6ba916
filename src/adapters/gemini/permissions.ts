import { isAbsolute } from 'node:path';
import { toolPolicy, type ToolRule } from '../../core/tool-rules.js';

/** Gemini CLI's tools for Claude-style persona tool names; its own names map to themselves. */
const GEMINI_TOOLS: Record<string, readonly string[]> = {
  bash: ['run_shell_command'],
  read: ['read_file', 'read_many_files'],
  write: ['write_file'],
  edit: ['replace'],
  multiedit: ['replace'],
  glob: ['glob'],
  grep: ['grep_search'],
  ls: ['list_directory'],
  webfetch: ['web_fetch'],
  websearch: ['google_web_search'],
  todowrite: ['write_todos'],
  skill: ['activate_skill'],
  ...Object.fromEntries(
    [
      'run_shell_command',
      'read_file',
      'read_many_files',
      'write_file',
      'replace',
      'grep_search',
      'list_directory',
      'web_fetch',
      'google_web_search',
      'write_todos',
      'activate_skill',
    ].map((name) => [name, [name]]),
  ),
};

/** The argument of each tool that a Wave pattern is matched against: a command, a path or a search pattern. */
const ARGUMENT_KEYS: Record<string, 'command' | 'file_path' | 'dir_path' | 'pattern'> = {
  run_shell_command: 'command',
  read_file: 'file_path',
  write_file: 'file_path',
  replace: 'file_path',
  list_directory: 'dir_path',
  glob: 'pattern',
  grep_search: 'pattern',
};

/** Tools that only keep Gemini's own bookkeeping: an allow list does not take them away. */
const BOOKKEEPING_TOOLS = ['complete_task', 'update_topic'];

/** Priorities inside Gemini's user tier: the higher wins, so deny rules beat allow rules beat the catch-all deny. */
const PRIORITY = { everythingDenied: 100, allow: 500, deny: 900, denyAll: 999 } as const;

/** One `[[rule]]` of a Gemini policy file. */
export interface GeminiPolicyRule {
  toolName: string | string[];
  decision: 'allow' | 'deny';
  priority: number;
  argsPattern?: string;
  allowRedirection?: boolean;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A piece of a JSON string value as the regex of its encoded text. */
const encoded = (text: string) => escapeRegex(JSON.stringify(text).slice(1, -1));

/**
 * A Wave glob (internal/adapter/permissions.go: `*` and `?`, `**` across folders in paths) as regexes over Gemini's
 * stable JSON of the tool's arguments, where each top-level `"key":value` pair sits between NUL characters. A relative
 * path pattern gets one regex per way the model may write the path: as is, `./`-prefixed, absolute in the workspace
 * (Gemini refuses optional groups as a ReDoS risk, so they are separate rules).
 */
export function argumentRegexes(key: string, pattern: string, workspace?: string): string[] {
  const isPath = key !== 'command' && key !== 'pattern';
  const any = isPath ? '[^/\\x00"]*' : '[^\\x00]*';
  const body = pattern
    .split(/(\*\*|\*|\?)/)
    .map((piece) => (piece === '**' ? '[^\\x00"]*' : piece === '*' ? any : piece === '?' ? any.replace('*', '') : encoded(piece)))
    .join('');
  const prefixes = isPath && workspace && !isAbsolute(pattern) ? ['', encoded('./'), encoded(`${workspace}/`)] : [''];
  return prefixes.map((prefix) => `\\x00"${key}":"${prefix}${body}"\\x00`);
}

/** The Gemini rules of one Wave rule; none when Gemini has no such tool. */
function rulesOf(rule: ToolRule, decision: 'allow' | 'deny', priority: number, workspace?: string): GeminiPolicyRule[] {
  const tools = GEMINI_TOOLS[rule.tool.toLowerCase()] ?? [];
  return tools.flatMap((tool) => {
    const base: GeminiPolicyRule = { toolName: tool, decision, priority, ...(decision === 'allow' && tool === 'run_shell_command' ? { allowRedirection: true } : {}) };
    if (rule.argument === undefined) return [base];
    const key = ARGUMENT_KEYS[tool];
    // A pattern on an argument Wave cannot name here: allowing nothing of the tool, or denying all of it, errs on the safe side.
    if (!key) return decision === 'deny' ? [base] : [];
    return argumentRegexes(key, rule.argument, workspace).map((argsPattern) => ({ ...base, argsPattern }));
  });
}

/**
 * The persona's permissions as Gemini policy rules (its user tier, above `--yolo`'s allow-all), with Wave's meaning:
 * `*` in `deny` denies every tool; an allow list (without `*`) denies every tool but its rules (and Gemini's own
 * bookkeeping, and its skills when the step installs some); deny rules win over allow rules. Empty when nothing is
 * restricted.
 */
export function geminiPolicyRules(allowed: readonly string[], denied: readonly string[], installsSkills = false, workspace?: string): GeminiPolicyRule[] {
  const policy = toolPolicy(allowed, denied);
  if (policy.deniesEverything) return [{ toolName: '*', decision: 'deny', priority: PRIORITY.denyAll }];
  const rules: GeminiPolicyRule[] = [];
  if (!policy.allowsEverything) {
    rules.push({ toolName: '*', decision: 'deny', priority: PRIORITY.everythingDenied }, { toolName: BOOKKEEPING_TOOLS, decision: 'allow', priority: PRIORITY.allow });
    for (const rule of policy.allowed) rules.push(...rulesOf(rule, 'allow', PRIORITY.allow, workspace));
    if (installsSkills) rules.push({ toolName: 'activate_skill', decision: 'allow', priority: PRIORITY.allow });
  }
  for (const rule of policy.denied) rules.push(...rulesOf(rule, 'deny', PRIORITY.deny, workspace));
  return rules;
}

/** The rules as a policy file (TOML: a JSON string is a valid TOML basic string). */
export function geminiPolicyToml(rules: readonly GeminiPolicyRule[]): string {
  const value = (v: unknown) => (Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v));
  return rules
    .map(
      (rule) =>
        `[[rule]]\n${Object.entries(rule)
          .map(([key, v]) => `${key} = ${value(v)}`)
          .join('\n')}\n`,
    )
    .join('\n');
}
