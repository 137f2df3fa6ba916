import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { resolveBinary } from '../../src/process/binary.js';
import { LOGIN_HINTS } from '../../src/adapters/agent-clis.js';
import { GEMINI_GATEWAY_HINT } from '../../src/adapters/login/login-hints.js';
import { runDoctor } from '../support/doctor.js';
import { cliAvailable } from './agents.js';

/** A home folder holding only `files`: a new user's, or one a CLI was logged in to. */
function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'wave-doctor-home-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** A manifest of these adapter lines, passing `passthrough` through to the steps. */
const manifest = (adapters: string[], passthrough: string[] = []) =>
  `kind: WaveManifest\nmetadata: { name: d }\nadapters:\n${adapters.map((line) => `  ${line}`).join('\n')}\nruntime: { sandbox: { env_passthrough: [${passthrough.join(', ')}] } }\n`;

/** A Claude Code login as `claude /login` leaves it on Linux (the CLI reads it without any request). */
const CLAUDE_LOGIN = JSON.stringify({ claudeAiOauth: { accessToken: 'sk-ant-oat01-x', refreshToken: 'sk-ant-ort01-y', expiresAt: 4102444800000, scopes: ['user:inference'] } });

describe.skipIf(!cliAvailable('claude'))('wave doctor: is Claude Code logged in, as `claude auth status` says with the step’s environment', () => {
  it('an empty home and no key: FAIL "not logged in" with the hint; a key in the adapter’s env, or passed through: ok', async () => {
    const { code, checks, text } = await runDoctor(
      manifest(
        [
          'bare: { type: claude, binary: claude }',
          'keyed: { type: claude, binary: claude, base_url: "http://127.0.0.1:9/s/text", env: { ANTHROPIC_API_KEY: fake-key } }',
          'passed: { type: claude, binary: claude, api_key_env: MY_CLAUDE_KEY }',
          'local: { type: claude, binary: claude, base_url: "http://127.0.0.1:9/s/text" }',
        ],
        ['MY_CLAUDE_KEY'],
      ),
      { HOME: home(), MY_CLAUDE_KEY: 'k', ANTHROPIC_API_KEY: 'set in the shell, not passed through' },
    );
    expect(code).toBe(1);
    expect(checks.bare).toMatchObject({
      usable: false,
      login: { state: 'missing' },
      problems: ['not logged in: `claude auth status` finds no key, token or login'],
      hints: [LOGIN_HINTS.claude],
    });
    expect(checks.keyed).toMatchObject({ usable: true, login: { state: 'ok', detail: 'logged in (api_key, ANTHROPIC_API_KEY)' } });
    expect(checks.passed).toMatchObject({ usable: true, login: { state: 'ok', detail: 'logged in (api_key, ANTHROPIC_API_KEY)' } });
    // A base URL alone is no credential to Claude Code: it says "Not logged in" without sending anything.
    expect(checks.local).toMatchObject({ usable: false, login: { state: 'missing' } });
    expect(text).toMatch(
      /^FAIL bare \(claude\)\n.*\n {2}model: \(the CLI's default\)\n {2}problem: not logged in: `claude auth status` finds no key, token or login\n {2}hint: Run `claude` and log in with \/login/m,
    );
    expect(text).toMatch(/^ok {3}keyed \(claude\)\n.*\n.*\n {2}login: logged in \(api_key, ANTHROPIC_API_KEY\)$/m);
  });

  it('a login in the home’s .claude folder: ok for the adapter that uses it, FAIL for an isolated one, saying why', async () => {
    const { checks } = await runDoctor(manifest(['shared: { type: claude, binary: claude }', 'isolated: { type: claude, binary: claude, isolated: true }']), {
      HOME: home({ '.claude/.credentials.json': CLAUDE_LOGIN }),
    });
    expect(checks.shared).toMatchObject({ usable: true, login: { state: 'ok', detail: 'logged in (claude.ai)' } });
    expect(checks.isolated).toMatchObject({ usable: false, login: { state: 'missing', detail: expect.stringContaining('isolated: true keeps the CLI from your own login') } });
  });
});

describe.skipIf(!cliAvailable('codex'))('wave doctor: is Codex logged in', () => {
  it('an empty home: FAIL with `codex login`; after `codex login --with-api-key`, CODEX_API_KEY passed, or a base_url: ok', async () => {
    const loggedIn = home();
    await execa(resolveBinary('codex', process.env)!, ['login', '--with-api-key'], { input: 'sk-test', env: { HOME: loggedIn }, extendEnv: false });
    const adapters = manifest(
      [
        'plain: { type: codex, binary: codex }',
        'keyed: { type: codex, binary: codex, env: { CODEX_API_KEY: k } }',
        'local: { type: codex, binary: codex, base_url: "http://127.0.0.1:9/v1" }',
      ],
      ['CODEX_API_KEY'],
    );
    const fresh = await runDoctor(adapters, { HOME: home() });
    expect(fresh.checks.plain).toMatchObject({ usable: false, problems: ['not logged in: `codex login status`: Not logged in'], hints: [LOGIN_HINTS.codex] });
    expect(fresh.checks.keyed).toMatchObject({ usable: true, login: { state: 'ok', detail: 'API key from CODEX_API_KEY' } });
    expect(fresh.checks.local).toMatchObject({ usable: true, login: { state: 'ok', detail: 'base_url http://127.0.0.1:9/v1, no key sent' } });
    const after = await runDoctor(adapters, { HOME: loggedIn });
    expect(after.checks.plain).toMatchObject({ usable: true, login: { state: 'ok', detail: '`codex login status`: API key configured - ***' } });
  });
});

describe.skipIf(!cliAvailable('gemini'))('wave doctor: would Gemini CLI accept its auth', () => {
  it('an empty home: FAIL with the hint; GEMINI_API_KEY passed: ok; a base_url: ok isolated, FAIL shared (Gemini refuses "gateway")', async () => {
    const { checks } = await runDoctor(
      manifest([
        'bare: { type: gemini, binary: gemini }',
        'isolated: { type: gemini, binary: gemini, isolated: true, base_url: "http://127.0.0.1:9" }',
        'shared: { type: gemini, binary: gemini, base_url: "http://127.0.0.1:9" }',
      ]),
      { HOME: home() },
    );
    expect(checks.bare).toMatchObject({ usable: false, hints: [LOGIN_HINTS.gemini], problems: [expect.stringContaining('not logged in: no auth method')] });
    expect(checks.isolated).toMatchObject({ usable: true, login: { state: 'ok', detail: 'API key from GEMINI_API_KEY' } });
    expect(checks.shared).toMatchObject({ usable: false, hints: [GEMINI_GATEWAY_HINT] });

    const passed = await runDoctor(manifest(['keyed: { type: gemini, binary: gemini }'], ['GEMINI_API_KEY']), { HOME: home(), GEMINI_API_KEY: 'k' });
    expect(passed.checks.keyed).toMatchObject({ usable: true, login: { state: 'ok', detail: 'API key from GEMINI_API_KEY' } });
    const dotenv = await runDoctor(manifest(['keyed: { type: gemini, binary: gemini }']), { HOME: home({ '.gemini/.env': 'GEMINI_API_KEY="k"\n' }) });
    expect(dotenv.checks.keyed).toMatchObject({ usable: true, login: { state: 'ok', detail: expect.stringMatching(/^API key from GEMINI_API_KEY in .*\.gemini\/\.env$/) } });
  });
});

describe.skipIf(!cliAvailable('opencode'))('wave doctor: does OpenCode have a provider’s credentials', () => {
  it('none: ok with a warning (its free models only); a login in auth.json or a provider key: ok', async () => {
    const adapters = manifest(['plain: { type: opencode, binary: opencode }']);
    const fresh = await runDoctor(adapters, { HOME: home() });
    expect(fresh.checks.plain).toMatchObject({ usable: true, warnings: [expect.stringContaining('opencode auth login')] });
    expect(fresh.text).toMatch(/^ok {3}plain \(opencode\)\n[\s\S]*\n {2}warning: OpenCode will use only its free OpenCode Zen models/m);
    const loggedIn = await runDoctor(adapters, { HOME: home({ '.local/share/opencode/auth.json': '{"anthropic":{"type":"api","key":"sk-ant-x"}}' }) });
    expect(loggedIn.checks.plain).toMatchObject({ usable: true, warnings: [], login: { state: 'ok', detail: expect.stringContaining('logged in to anthropic') } });
    const keyed = await runDoctor(manifest(['plain: { type: opencode, binary: opencode }'], ['OPENROUTER_API_KEY']), { HOME: home(), OPENROUTER_API_KEY: 'k' });
    expect(keyed.checks.plain).toMatchObject({ usable: true, warnings: [], login: { state: 'ok', detail: 'provider keys from OPENROUTER_API_KEY' } });
  });
});
