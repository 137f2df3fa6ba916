import { describe, expect, it } from 'vitest';
import { claudePermissionArgs, claudePermissions, claudeRule } from '../../src/adapters/claude/permissions.js';
import { parseToolRule, toolPolicy } from '../../src/core/tool-rules.js';
import type { ResolvedPersona } from '../../src/core/resolved-adapter.js';

const persona = (allowedTools: string[], deniedTools: string[] = []): ResolvedPersona => ({
  name: 'p',
  systemPrompt: '',
  allowedTools,
  deniedTools,
  allowedDomains: [],
  skills: [],
});

describe("Wave's permission rules, read as internal/adapter/permissions.go reads them", () => {
  it('splits a rule into its tool and argument pattern; an empty or * argument matches any argument', () => {
    expect(parseToolRule('Bash(git *)')).toEqual({ tool: 'Bash', argument: 'git *' });
    expect(parseToolRule(' Read ')).toEqual({ tool: 'Read' });
    expect(parseToolRule('Write(*)')).toEqual({ tool: 'Write' });
    expect(parseToolRule('Write()')).toEqual({ tool: 'Write' });
    expect(parseToolRule('Write(.agents/output/*)')).toEqual({ tool: 'Write', argument: '.agents/output/*' });
    expect(parseToolRule('*')).toEqual({ tool: '*' });
  });

  it('deny wins over allow; an empty allow list or one with * allows every tool not denied', () => {
    expect(toolPolicy([], [])).toMatchObject({ allowsEverything: true, deniesEverything: false });
    expect(toolPolicy(['*'], ['Bash(rm *)'])).toMatchObject({ allowsEverything: true, deniesEverything: false, allowed: [], denied: [{ tool: 'Bash', argument: 'rm *' }] });
    expect(toolPolicy(['Read'], [])).toMatchObject({ allowsEverything: false, allowed: [{ tool: 'Read' }] });
    expect(toolPolicy(['*'], ['*'])).toMatchObject({ deniesEverything: true });
  });
});

describe('the persona permissions Claude Code gets', () => {
  it('allowed_tools ["*"] bypasses prompts and passes no allow rule (Claude reads "*" as a tool named "*")', () => {
    const permissions = claudePermissions(persona(['*']));
    expect(permissions).toEqual({ mode: 'bypassPermissions', allow: [], deny: [] });
    expect(claudePermissionArgs(permissions)).toEqual([]);
  });

  it('allowed_tools ["*"] with deny rules: bypass, and only the deny rules bind', () => {
    const permissions = claudePermissions(persona(['*'], ['Bash(git push *)', 'Write(secrets/*)']));
    expect(permissions).toEqual({ mode: 'bypassPermissions', allow: [], deny: ['Bash(git push *)', 'Edit(secrets/*)'] });
    expect(claudePermissionArgs(permissions)).toEqual(['--settings', '{"permissions":{"allow":[],"deny":["Bash(git push *)","Edit(secrets/*)"]}}']);
  });

  it('deny ["*"] leaves Claude no tools at all, whatever the allow list says', () => {
    const permissions = claudePermissions(persona(['*', 'Bash'], ['*']));
    expect(permissions).toEqual({ mode: 'default', tools: [], allow: [], deny: [] });
    expect(claudePermissionArgs(permissions)).toEqual(['--tools', '']);
  });

  it('an allow list offers only the tools it names, in default mode, with its rules in Claude syntax', () => {
    const permissions = claudePermissions(persona(['Read', 'Bash(git *)', 'Write(.agents/output/*)'], ['Bash(git push *)']));
    expect(permissions).toEqual({
      mode: 'default',
      tools: ['Read', 'Bash', 'Write'],
      allow: ['Read', 'Bash(git *)', 'Edit(.agents/output/*)'],
      deny: ['Bash(git push *)'],
    });
    expect(claudePermissionArgs(permissions)).toEqual([
      '--tools',
      'Read,Bash,Write',
      '--settings',
      '{"permissions":{"allow":["Read","Bash(git *)","Edit(.agents/output/*)"],"deny":["Bash(git push *)"]}}',
    ]);
    // A step that installs skills keeps Claude's Skill tool.
    expect(claudePermissions(persona(['Read']), true).tools).toEqual(['Read', 'Skill']);
  });

  it('file-writing tools with a path become Edit(path), the rule Claude matches paths on; other rules pass unchanged', () => {
    expect(claudeRule({ tool: 'Write', argument: 'out/*' })).toBe('Edit(out/*)');
    expect(claudeRule({ tool: 'MultiEdit', argument: 'src/**' })).toBe('Edit(src/**)');
    expect(claudeRule({ tool: 'Write' })).toBe('Write');
    expect(claudeRule({ tool: 'Read', argument: './docs/**' })).toBe('Read(./docs/**)');
    expect(claudeRule({ tool: 'WebFetch', argument: 'domain:example.com' })).toBe('WebFetch(domain:example.com)');
  });
});
