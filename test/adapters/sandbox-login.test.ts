import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxLogin } from '../../src/adapters/login/sandbox-login.js';
import type { ResolvedAdapter } from '../../src/core/resolved-adapter.js';

const adapter = (type: ResolvedAdapter['type'], extra: Partial<ResolvedAdapter> = {}): ResolvedAdapter => ({ name: type, type, env: {}, isolated: false, ...extra });

/** A user's HOME holding the given files (relative paths), and the step's own HOME beside it. */
function homes(files: string[]): { user: string; step: string } {
  const root = mkdtempSync(join(tmpdir(), 'wave-login-'));
  const user = join(root, 'user');
  for (const file of files) {
    mkdirSync(join(user, file, '..'), { recursive: true });
    writeFileSync(join(user, file), '{}');
  }
  return { user, step: join(root, 'attempt-1', 'home') };
}

describe('the CLI login a sandboxed step uses', () => {
  it("is each CLI's credentials file, seen at the same place under the step's HOME, with what the CLI needs to use it", () => {
    const { user, step } = homes(['.claude/.credentials.json', '.codex/auth.json', '.gemini/oauth_creds.json', '.local/share/opencode/auth.json']);
    expect(sandboxLogin(adapter('claude'), { HOME: user }, step)).toEqual({
      file: join(user, '.claude/.credentials.json'),
      at: join(step, '.claude/.credentials.json'),
      variables: {},
      hosts: ['platform.claude.com'],
    });
    expect(sandboxLogin(adapter('codex'), { HOME: user }, step)).toMatchObject({ at: join(step, '.codex/auth.json'), hosts: ['chatgpt.com', 'auth.openai.com'] });
    expect(sandboxLogin(adapter('gemini'), { HOME: user }, step)).toMatchObject({
      at: join(step, '.gemini/oauth_creds.json'),
      // Its settings stay out of the sandbox, so the variable selects the Google sign-in.
      variables: { GOOGLE_GENAI_USE_GCA: 'true' },
      hosts: ['cloudcode-pa.googleapis.com', 'oauth2.googleapis.com'],
    });
    expect(sandboxLogin(adapter('opencode'), { HOME: user }, step)).toMatchObject({ at: join(step, '.local/share/opencode/auth.json'), hosts: [] });
  });

  it("is none when the CLI's config home variable sends it outside the step's HOME, where nothing of the host is seen", () => {
    const { user, step } = homes(['elsewhere/.credentials.json', '.claude/.credentials.json']);
    expect(sandboxLogin(adapter('claude'), { HOME: user, CLAUDE_CONFIG_DIR: join(user, 'elsewhere') }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('claude', { env: { CLAUDE_CONFIG_DIR: join(user, 'elsewhere') } }), { HOME: user }, step)).toBeUndefined();
  });

  it('is none when the step has other access, when the adapter is isolated, or when there is no login', () => {
    const { user, step } = homes(['.claude/.credentials.json']);
    expect(sandboxLogin(adapter('claude', { isolated: true }), { HOME: user }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('claude', { baseUrl: 'http://127.0.0.1:9' }), { HOME: user }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('claude'), { HOME: user, ANTHROPIC_API_KEY: 'sk-passed' }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('claude', { env: { ANTHROPIC_API_KEY: 'sk-own' } }), { HOME: user }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('claude', { apiKeyEnv: 'TEAM_KEY' }), { HOME: user, TEAM_KEY: 'sk-team' }, step)).toBeUndefined();
    // An empty key is no access: the login still is.
    expect(sandboxLogin(adapter('claude'), { HOME: user, ANTHROPIC_API_KEY: '' }, step)).toBeDefined();
    expect(sandboxLogin(adapter('codex'), { HOME: user }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('process'), { HOME: user }, step)).toBeUndefined();
    expect(sandboxLogin(adapter('cursor'), { HOME: user }, step)).toBeUndefined();
  });
});
