import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, buildClaudeEnv } from '../../src/adapters/claude/invocation.js';
import { prepareClaudeWorkspace } from '../../src/adapters/claude/workspace.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';
import type { ResolvedPersona } from '../../src/core/resolved-adapter.js';

function config(fields: Partial<AdapterRunConfig> = {}, persona?: Partial<ResolvedPersona>): AdapterRunConfig {
  const dir = mkdtempSync(join(tmpdir(), 'wave-claude-'));
  return {
    runId: 'r',
    stepId: 's',
    attempt: 1,
    prompt: 'p',
    execType: 'prompt',
    workspace: join(dir, 'ws'),
    attemptDir: join(dir, 'attempt'),
    env: { PATH: '/usr/bin', HOME: '/home/u', MY_KEY: 'key-value' },
    graceMs: 100,
    maxLineBytes: 1024,
    adapter: { name: 'claude', type: 'claude', env: {}, isolated: false },
    ...(persona ? { persona: { name: 'p', systemPrompt: '', allowedTools: [], deniedTools: [], allowedDomains: [], skills: [], ...persona } } : {}),
    ...fields,
  };
}

describe('claude argv and environment', () => {
  it('stream-json needs --verbose; the model and persona prompt are passed; an allow list means default mode', () => {
    const c = config({ model: 'm1' }, { allowedTools: ['Read'] });
    expect(buildClaudeArgs(c, 'Be brief.')).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'default',
      '--tools',
      'Read',
      '--settings',
      '{"permissions":{"allow":["Read"],"deny":[]}}',
      '--model',
      'm1',
      '--append-system-prompt',
      'Be brief.',
    ]);
    expect(buildClaudeArgs(config(), '')).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions']);
    const own = config({ adapter: { name: 'c', type: 'claude', env: {}, isolated: false, args: ['--permission-mode', 'acceptEdits'] } });
    expect(buildClaudeArgs(own, '').filter((a) => a === '--permission-mode')).toHaveLength(1);
  });

  it('quiet and retry caps by default, the base URL and key mapped, the config home isolated only when asked', () => {
    const shared = buildClaudeEnv(config(), []);
    expect(shared).toMatchObject({
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
      HOME: '/home/u',
    });
    expect(shared.CLAUDE_CONFIG_DIR).toBeUndefined();
    const c = config({ adapter: { name: 'c', type: 'claude', env: {}, isolated: true, baseUrl: 'http://127.0.0.1:9/s/text', apiKeyEnv: 'MY_KEY' } });
    const env = buildClaudeEnv(c, ['--permission-mode', 'default']);
    expect(env).toMatchObject({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/s/text', ANTHROPIC_API_KEY: 'key-value', CLAUDE_CONFIG_DIR: join(c.attemptDir, 'home') });
    expect(env.IS_SANDBOX).toBeUndefined();
    // The step's env may lift the retry cap.
    expect(buildClaudeEnv(config({ env: { CLAUDE_CODE_MAX_RETRIES: '5' } }), []).CLAUDE_CODE_MAX_RETRIES).toBe('5');
  });

  it("leaves the workspace's .claude/settings.json alone on the host: the persona's permissions go on the command line", async () => {
    const c = config({}, { allowedTools: ['Read', 'Bash(git log *)'], deniedTools: ['Edit'] });
    mkdirSync(join(c.workspace, '.claude'), { recursive: true });
    writeFileSync(join(c.workspace, '.claude', 'settings.json'), '{"env":{"A":"1"}}');
    await prepareClaudeWorkspace(c);
    expect(JSON.parse(readFileSync(join(c.workspace, '.claude', 'settings.json'), 'utf8'))).toEqual({ env: { A: '1' } });
    const args = buildClaudeArgs(c, '');
    expect(JSON.parse(args[args.indexOf('--settings') + 1]!)).toEqual({ permissions: { allow: ['Read', 'Bash(git log *)'], deny: ['Edit'] } });
  });

  it("inside Wave's sandbox switches Claude's own bash sandbox off, keeping the project's other settings", async () => {
    const c = config({
      spawn: async () => {
        throw new Error('not called');
      },
    });
    mkdirSync(join(c.workspace, '.claude'), { recursive: true });
    writeFileSync(join(c.workspace, '.claude', 'settings.json'), '{"sandbox":{"enabled":true,"excludedCommands":["docker"]},"env":{"A":"1"}}');
    await prepareClaudeWorkspace(c);
    expect(JSON.parse(readFileSync(join(c.workspace, '.claude', 'settings.json'), 'utf8'))).toEqual({
      sandbox: { enabled: false, excludedCommands: ['docker'] },
      env: { A: '1' },
    });
    // On the host, a project's own choice is left alone.
    const host = config();
    mkdirSync(join(host.workspace, '.claude'), { recursive: true });
    writeFileSync(join(host.workspace, '.claude', 'settings.json'), '{"sandbox":{"enabled":true}}');
    await prepareClaudeWorkspace(host);
    expect(JSON.parse(readFileSync(join(host.workspace, '.claude', 'settings.json'), 'utf8'))).toEqual({ sandbox: { enabled: true } });
  });
});
