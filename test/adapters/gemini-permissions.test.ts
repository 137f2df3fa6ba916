import { describe, expect, it } from 'vitest';
import { argumentRegexes, geminiPolicyRules, geminiPolicyToml } from '../../src/adapters/gemini/permissions.js';

/** Gemini's stable JSON of a tool call's arguments: sorted keys, each top-level pair between NUL characters. */
const stable = (args: Record<string, string>) =>
  `{${Object.keys(args)
    .sort()
    .map((k) => `\0${JSON.stringify(k)}:${JSON.stringify(args[k])}\0`)
    .join(',')}}`;
const matches = (regexes: string[], args: Record<string, string>) => regexes.some((r) => new RegExp(r).test(stable(args)));

describe("Gemini policy rules, with Wave's meaning", () => {
  it('nothing restricted: no rules (and so no policy file)', () => {
    expect(geminiPolicyRules([], [])).toEqual([]);
    expect(geminiPolicyRules(['*'], [])).toEqual([]);
  });

  it('deny ["*"]: one rule denying every tool, above everything else', () => {
    expect(geminiPolicyRules(['*'], ['*'])).toEqual([{ toolName: '*', decision: 'deny', priority: 999 }]);
  });

  it('an allow list denies every tool but its own (and Gemini bookkeeping); deny rules rank above allow rules', () => {
    const rules = geminiPolicyRules(['Read', 'Bash'], ['WebFetch']);
    expect(rules).toEqual([
      { toolName: '*', decision: 'deny', priority: 100 },
      { toolName: ['complete_task', 'update_topic'], decision: 'allow', priority: 500 },
      { toolName: 'read_file', decision: 'allow', priority: 500 },
      { toolName: 'read_many_files', decision: 'allow', priority: 500 },
      { toolName: 'run_shell_command', decision: 'allow', priority: 500, allowRedirection: true },
      { toolName: 'web_fetch', decision: 'deny', priority: 900 },
    ]);
    // A step with skills keeps Gemini's skill tool; a tool Gemini lacks adds nothing.
    expect(geminiPolicyRules(['Task'], [], true).map((r) => r.toolName)).toEqual(['*', ['complete_task', 'update_topic'], 'activate_skill']);
  });

  it('command patterns match the command as Wave globs do, and only the command', () => {
    const echo = argumentRegexes('command', 'echo *');
    expect(matches(echo, { command: 'echo hello', dir_path: '/w' })).toBe(true);
    expect(matches(echo, { command: 'touch made.txt', description: 'echo x' })).toBe(false);
    expect(matches(argumentRegexes('command', 'git status'), { command: 'git status --short' })).toBe(false);
    expect(matches(argumentRegexes('command', 'say "hi" *'), { command: 'say "hi" there' })).toBe(true);
  });

  it('path patterns match the path as written, ./-prefixed or absolute in the workspace; * stays in one folder', () => {
    const out = argumentRegexes('file_path', '.agents/output/*', '/ws/step');
    expect(out).toHaveLength(3);
    expect(matches(out, { file_path: '.agents/output/r.md', content: 'x' })).toBe(true);
    expect(matches(out, { file_path: './.agents/output/r.md' })).toBe(true);
    expect(matches(out, { file_path: '/ws/step/.agents/output/r.md' })).toBe(true);
    expect(matches(out, { file_path: '.agents/output/deeper/r.md' })).toBe(false);
    expect(matches(out, { file_path: 'r.md' })).toBe(false);
    expect(matches(out, { file_path: '/elsewhere/.agents/output/r.md' })).toBe(false);
    expect(matches(argumentRegexes('file_path', 'src/**', '/ws'), { file_path: 'src/a/b/c.ts' })).toBe(true);
    // Gemini refuses optional groups as a ReDoS risk: none are emitted.
    for (const r of out) expect(r).not.toMatch(/\)[*+?{]/);
  });

  it('a pattern on an argument Gemini names differently: denied as a whole tool, allowed not at all', () => {
    expect(geminiPolicyRules(['*'], ['WebFetch(domain:example.com)'])).toEqual([{ toolName: 'web_fetch', decision: 'deny', priority: 900 }]);
    expect(geminiPolicyRules(['WebFetch(domain:example.com)'], []).map((r) => r.toolName)).toEqual(['*', ['complete_task', 'update_topic']]);
  });

  it('writes TOML whose strings are JSON strings', () => {
    const toml = geminiPolicyToml([{ toolName: 'run_shell_command', decision: 'allow', priority: 500, allowRedirection: true, argsPattern: '\\x00"command":"a"' }]);
    expect(toml).toBe('[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 500\nallowRedirection = true\nargsPattern = "\\\\x00\\"command\\":\\"a\\""\n');
  });
});
