import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, loadPipeline } from '../../src/config/load/load.js';
import { WaveError, WaveErrors } from '../../src/core/errors/errors.js';
import { forgeApiBase } from '../../src/forge/token-introspect.js';
import { checkTokenScopes } from '../../src/forge/token-scope-check.js';
import { buildPlan } from '../../src/plan/plan.js';
import { startFakeForge, type FakeForge } from '../support/fake-forge.js';
import { makeProject } from '../support/project.js';
import { closedPort } from '../support/closed-port.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: triage
    persona: analyst
    exec: { source: "look" }
  - id: write
    persona: scoper
    dependencies: [triage]
    exec: { source: "write" }
`;

/** A planned project whose analyst reads and whose scoper writes issues; `extra` goes under the scoper. */
async function planned(options: { forge?: string; passthrough?: string[]; scoper?: string; remote?: string; apiSeconds?: number } = {}) {
  const dir = makeProject({
    'wave.yaml': `kind: WaveManifest
metadata: { name: t${options.forge ? `, forge: ${options.forge}` : ''} }
adapters: { claude: { binary: claude } }
personas:
  analyst:
    adapter: claude
    token_scopes: [issues:read, repos:read]
  scoper:
    adapter: claude
    token_scopes: [${options.scoper ?? 'issues:write'}]
runtime:
  sandbox: { env_passthrough: [${(options.passthrough ?? ['GH_TOKEN', 'GITHUB_TOKEN', 'GITLAB_TOKEN']).join(', ')}] }
  timeouts: { forge_api_seconds: ${options.apiSeconds ?? 5} }
`,
    'pipelines/p.yaml': PIPELINE,
  });
  if (options.remote) {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['remote', 'add', 'origin', options.remote], { cwd: dir });
  }
  const manifest = await loadManifest(join(dir, 'wave.yaml'), {});
  return buildPlan(manifest, await loadPipeline(join(dir, 'pipelines', 'p.yaml'), manifest, {}), { input: '' });
}

/** The error checkTokenScopes threw, as a list. */
async function refusals(promise: Promise<unknown>): Promise<WaveError[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WaveErrors) return error.errors;
    if (error instanceof WaveError) return [error];
    throw error;
  }
  throw new Error('expected the check to refuse the token');
}

describe('persona token_scopes, checked against the forge token before a run', () => {
  let forge: FakeForge;
  beforeAll(async () => {
    forge = await startFakeForge({
      'classic-repo': { scopes: ['repo', 'read:org'] },
      'classic-gist': { scopes: ['gist'] },
      'fine-grained': { unlisted: true },
      revoked: { status: 401 },
      'gitlab-api': { scopes: ['api', 'read_repository'] },
      'gitlab-read': { scopes: ['read_api', 'read_repository'] },
    });
  });
  afterAll(() => forge?.close());

  const github = (token: string, extra: NodeJS.ProcessEnv = {}) => ({ GH_TOKEN: token, GITHUB_API_URL: forge.githubUrl, ...extra });

  it('passes when the token holds the scopes GitHub grants them as (repo covers issues and repos), asking the API once per token', async () => {
    const plan = await planned({ forge: 'github' });
    const before = forge.requests.length;
    expect(await checkTokenScopes(plan, github('classic-repo'))).toEqual([]);
    const asked = forge.requests.slice(before);
    expect(asked.map((r) => r.path)).toEqual(['/github/user']);
    expect(asked[0]!.headers.authorization).toBe('Bearer classic-repo');
  });

  it('refuses a token that lacks a scope, naming persona, scope, the token and how to grant it, at the scope in wave.yaml', async () => {
    const plan = await planned({ forge: 'github' });
    const errors = await refusals(checkTokenScopes(plan, github('classic-gist')));
    // Every missing scope at once: the analyst's two and the scoper's one.
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([
      ['token_scope_missing', 7],
      ['token_scope_missing', 7],
      ['token_scope_missing', 10],
    ]);
    const scoper = errors[2]!;
    expect(scoper.message).toBe('persona `scoper` needs token scope `issues:write`, which GitHub grants as `repo`; the token in GH_TOKEN has only `gist`');
    expect(scoper.hint).toBe(
      'Grant repo to the token: `gh auth refresh --scopes repo` for a gh login, or a classic personal access token with repo from https://github.com/settings/tokens; then put it in GH_TOKEN.',
    );
    expect(scoper.where()).toMatch(/wave\.yaml:10:20$/);
  });

  it('reads GITHUB_TOKEN when GH_TOKEN is unset, and a scope’s own @VARIABLE before both', async () => {
    const plan = await planned({ forge: 'github', scoper: 'issues:write@BOT_TOKEN', passthrough: ['GITHUB_TOKEN', 'BOT_TOKEN'] });
    const env = { GITHUB_TOKEN: 'classic-repo', BOT_TOKEN: 'classic-gist', GITHUB_API_URL: forge.githubUrl };
    const [error, ...rest] = await refusals(checkTokenScopes(plan, env));
    expect(rest).toEqual([]);
    expect(error!.message).toContain('persona `scoper` needs token scope `issues:write@BOT_TOKEN`');
    expect(error!.message).toContain('the token in BOT_TOKEN has only `gist`');
  });

  it('maps packages to GitHub’s own package scopes, write:packages covering read', async () => {
    const plan = await planned({ forge: 'github', scoper: 'packages:read' });
    const errors = await refusals(checkTokenScopes(plan, github('classic-repo')));
    expect(errors.map((e) => e.message)).toEqual([
      'persona `scoper` needs token scope `packages:read`, which GitHub grants as `read:packages`; the token in GH_TOKEN has only `repo`, `read:org`',
    ]);
  });

  it('refuses a token env_passthrough would not hand to the persona’s steps', async () => {
    const plan = await planned({ forge: 'github', passthrough: ['HOME'] });
    const errors = await refusals(checkTokenScopes(plan, github('classic-repo')));
    expect(errors[0]!.message).toContain('persona `analyst` needs the token in GH_TOKEN (for `issues:read`), but its steps would not get it');
    expect(errors[0]!.hint).toBe("Add GH_TOKEN to runtime.sandbox.env_passthrough in the manifest (or set it in the persona's env).");
  });

  it('says what it could not check, per persona, and lets the run go on: no token, a fine-grained token, a token the API refuses', async () => {
    const plan = await planned({ forge: 'github' });
    expect(await checkTokenScopes(plan, { GITHUB_API_URL: forge.githubUrl })).toEqual([
      { persona: 'analyst', scopes: ['issues:read', 'repos:read'], reason: 'GH_TOKEN and GITHUB_TOKEN are not set' },
      { persona: 'scoper', scopes: ['issues:write'], reason: 'GH_TOKEN and GITHUB_TOKEN are not set' },
    ]);
    const fine = await checkTokenScopes(plan, github('fine-grained'));
    expect(fine.map((n) => n.reason)).toEqual([
      'GH_TOKEN: the token is not a classic personal access token (GitHub lists no scopes for fine-grained and app tokens)',
      'GH_TOKEN: the token is not a classic personal access token (GitHub lists no scopes for fine-grained and app tokens)',
    ]);
    const revoked = await checkTokenScopes(plan, github('revoked'));
    expect(revoked[0]!.reason).toBe(`GH_TOKEN: GET ${forge.githubUrl}/user answered 401 Unauthorized`);
  });

  it('says so when the API cannot be reached', async () => {
    const plan = await planned({ forge: 'github' });
    const closed = await closedPort();
    const unchecked = await checkTokenScopes(plan, { GH_TOKEN: 'classic-repo', GITHUB_API_URL: `http://127.0.0.1:${closed}/api` });
    expect(unchecked[0]!.reason).toBe(`GH_TOKEN: GET http://127.0.0.1:${closed}/api/user failed: ECONNREFUSED`);
  });

  it('gives up on an API that does not answer within runtime.timeouts.forge_api_seconds', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const plan = await planned({ forge: 'github', apiSeconds: 0.3 });
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = Date.now();
      const unchecked = await checkTokenScopes(plan, { GH_TOKEN: 'classic-repo', GITHUB_API_URL: url });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(unchecked[0]!.reason).toBe(`GH_TOKEN: GET ${url}/user failed: no answer within 0.3s`);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('asks GitLab for a personal access token’s scopes: api covers writing issues, read_api only reading', async () => {
    const plan = await planned({ forge: 'gitlab' });
    const env = (token: string) => ({ GITLAB_TOKEN: token, CI_API_V4_URL: forge.gitlabUrl });
    expect(await checkTokenScopes(plan, env('gitlab-api'))).toEqual([]);
    expect(forge.requests.at(-1)!.headers['private-token']).toBe('gitlab-api');
    const errors = await refusals(checkTokenScopes(plan, env('gitlab-read')));
    expect(errors.map((e) => e.message)).toEqual([
      'persona `scoper` needs token scope `issues:write`, which GitLab grants as `api`; the token in GITLAB_TOKEN has only `read_api`, `read_repository`',
    ]);
    expect(errors[0]!.hint).toBe('Create a personal access token with the api scope at https://gitlab.com/-/user_settings/personal_access_tokens and put it in GITLAB_TOKEN.');
  });

  it('finds the forge from the git remote when metadata.forge is unset, and warns where no forge tells scopes', async () => {
    const fromRemote = await planned({ remote: 'git@github.com:re-cinq/wave.git' });
    await expect(refusals(checkTokenScopes(fromRemote, github('classic-gist')))).resolves.toHaveLength(3);
    const gitea = await planned({ remote: 'https://gitea.example.org/o/r.git' });
    expect((await checkTokenScopes(gitea, github('classic-repo')))[0]!.reason).toBe("gitea tokens do not tell their scopes (only GitHub's and GitLab's do)");
    const local = await planned();
    expect((await checkTokenScopes(local, github('classic-repo')))[0]!.reason).toBe('the project has no forge (no git remote)');
    const unknown = await planned({ remote: 'https://git.example.org/o/r.git' });
    expect((await checkTokenScopes(unknown, github('classic-repo')))[0]!.reason).toContain('the forge could not be told from the git remote on git.example.org');
  });
});

describe('the forge API a token is asked at', () => {
  it.each([
    ['github', 'github.com', {}, 'https://api.github.com'],
    ['github', 'git.corp.example', {}, 'https://git.corp.example/api/v3'],
    ['github', undefined, { GITHUB_API_URL: 'https://ghe.example/api/v3/' }, 'https://ghe.example/api/v3'],
    ['gitlab', undefined, {}, 'https://gitlab.com/api/v4'],
    ['gitlab', 'gitlab.corp.example', {}, 'https://gitlab.corp.example/api/v4'],
    ['gitlab', 'gitlab.com', { CI_API_V4_URL: 'https://gl.example/api/v4' }, 'https://gl.example/api/v4'],
  ] as const)('%s on %s (%o): %s', (forge, host, env, base) => {
    expect(forgeApiBase(forge, host, env)).toBe(base);
  });
});
