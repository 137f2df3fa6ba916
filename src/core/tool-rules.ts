/** One persona permission rule as Wave reads it (internal/adapter/permissions.go): a tool and an optional argument pattern. */
export interface ToolRule {
  /** The tool's name as written (`Bash`, `Write`, `mcp__x`), or `*` for every tool. */
  tool: string;
  /** The argument pattern inside the parentheses (`git *`, `.agents/output/*`); absent when any argument matches. */
  argument?: string;
}

/**
 * Splits a rule as Wave's parseToolPattern does: `Bash(git *)` is Bash with `git *`, `Read` is Read with any
 * argument, and an empty or `*` argument (`Write()`, `Write(*)`) also matches any argument.
 */
export function parseToolRule(rule: string): ToolRule {
  const text = rule.trim();
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open === -1 || close <= open) return { tool: text };
  const tool = text.slice(0, open).trim();
  const argument = text.slice(open + 1, close);
  return argument === '' || argument === '*' ? { tool } : { tool, argument };
}

/** Whether a rule matches every tool call: Wave's `*` (matchToolPattern's wildcard). */
export function matchesEveryTool(rule: ToolRule): boolean {
  return rule.tool === '*' && rule.argument === undefined;
}

/** How a persona's allow and deny lists bound its tools, read as Wave reads them. */
export interface ToolPolicy {
  /** Deny wins: a `*` in `deny` refuses every tool, whatever the allow list says. */
  deniesEverything: boolean;
  /** No allow list, or one holding `*`: every tool not denied runs (Wave allows by default). */
  allowsEverything: boolean;
  allowed: ToolRule[];
  denied: ToolRule[];
}

/** The persona's lists as one policy: Wave checks deny first, then allows all when the allow list is empty or has `*`. */
export function toolPolicy(allowed: readonly string[], denied: readonly string[]): ToolPolicy {
  const allowRules = allowed.map(parseToolRule);
  const denyRules = denied.map(parseToolRule);
  return {
    deniesEverything: denyRules.some(matchesEveryTool),
    allowsEverything: allowRules.length === 0 || allowRules.some(matchesEveryTool),
    allowed: allowRules.filter((rule) => !matchesEveryTool(rule)),
    denied: denyRules.filter((rule) => !matchesEveryTool(rule)),
  };
}
