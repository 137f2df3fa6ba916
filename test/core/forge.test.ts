import { describe, expect, it } from 'vitest';
import { classifyForgeHost, forgeOf, forgeReferences, parseRemoteUrl, pickFetchRemote, substituteForge } from '../../src/core/forge/forge.js';

describe("Wave's forge detection (internal/forge/detect.go)", () => {
  it.each([
    ['git@github.com:re-cinq/wave.git', { host: 'github.com', owner: 're-cinq', repo: 'wave' }],
    ['https://github.com/re-cinq/wave.git', { host: 'github.com', owner: 're-cinq', repo: 'wave' }],
    ['https://gho_TOKEN@github.com/re-cinq/wave', { host: 'github.com', owner: 're-cinq', repo: 'wave' }],
    ['http://gitea.local:3000/team/app', { host: 'gitea.local:3000', owner: 'team', repo: 'app' }],
    ['ssh://git@gitlab.example.com/group/sub/repo.git', { host: 'gitlab.example.com', owner: 'group', repo: 'sub/repo' }],
    ['git@bitbucket.org:team/app.git', { host: 'bitbucket.org', owner: 'team', repo: 'app' }],
  ])('parses %s', (url, expected) => {
    expect(parseRemoteUrl(url)).toEqual(expected);
  });

  it('parses no host out of a local path', () => {
    expect(parseRemoteUrl('/srv/git/app.git')).toBeUndefined();
    expect(parseRemoteUrl('file:///srv/git/app.git')).toBeUndefined();
  });

  it.each([
    ['github.com', 'github'],
    ['ssh.github.com', 'github'],
    ['gitlab.com', 'gitlab'],
    ['bitbucket.org', 'bitbucket'],
    ['gitea.example.com', 'gitea'],
    ['code.forgejo.dev', 'forgejo'],
    ['codeberg.org', 'codeberg'],
    ['git.example.org', undefined],
    ['notgithub.com', undefined],
  ])('classifies the host %s as %s', (host, type) => {
    expect(classifyForgeHost(host, {})).toBe(type);
  });

  it('takes self-hosted instances from WAVE_GITEA_HOSTS and WAVE_FORGEJO_HOSTS, case-insensitively', () => {
    expect(classifyForgeHost('git.example.org', { WAVE_GITEA_HOSTS: 'other.org, GIT.example.org' })).toBe('gitea');
    expect(classifyForgeHost('git.example.org', { WAVE_FORGEJO_HOSTS: 'git.example.org' })).toBe('forgejo');
  });

  it("picks origin's fetch URL, else the first fetch remote", () => {
    const both = 'upstream\thttps://gitlab.com/a/b.git (fetch)\nupstream\thttps://gitlab.com/a/b.git (push)\norigin\tgit@github.com:c/d.git (fetch)\n';
    expect(pickFetchRemote(both)).toBe('git@github.com:c/d.git');
    expect(pickFetchRemote('upstream\thttps://gitlab.com/a/b.git (push)\nfork\thttps://codeberg.org/e/f (fetch)\n')).toBe('https://codeberg.org/e/f');
    expect(pickFetchRemote('')).toBeUndefined();
  });

  it('is local without a remote; metadata.forge overrides the type, `none` meaning local', () => {
    expect(forgeOf(undefined, undefined, {})).toEqual({ type: 'local', host: '', owner: '', repo: '' });
    expect(forgeOf('https://github.com/o/r.git', 'GitLab', {})).toMatchObject({ type: 'gitlab', host: 'github.com', owner: 'o', repo: 'r' });
    expect(forgeOf('https://github.com/o/r.git', 'none', {}).type).toBe('local');
    expect(forgeOf('https://git.example.org/o/r.git', undefined, {}).type).toBeUndefined();
  });

  it('finds and replaces {{ forge.* }} in a name, spaced or not', () => {
    expect(forgeReferences('{{ forge.type }}-{{forge.owner}}-{{ forge.type }}')).toEqual(['forge.type', 'forge.owner']);
    expect(substituteForge('{{ forge.type }}-analyst-{{forge.repo}}', { 'forge.type': 'gitea', 'forge.repo': 'app' })).toBe('gitea-analyst-app');
    expect(substituteForge('{{ forge.owner }}-x', {})).toBe('{{ forge.owner }}-x');
  });
});
