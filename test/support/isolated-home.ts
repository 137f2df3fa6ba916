import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// Each test file runs with a HOME of its own and a git identity, whatever the machine's login profile holds: agent
// CLIs start login shells, which would otherwise read the developer's profile (pyenv, nvm, rbenv hooks) and config.
const home = mkdtempSync(join(tmpdir(), 'wave-test-home-'));
Object.assign(process.env, {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
  GIT_AUTHOR_NAME: 'Wave Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Wave Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
});
// Files a non-interactive shell would source before every command.
for (const name of ['BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND']) delete process.env[name];
afterAll(() => rmSync(home, { recursive: true, force: true }));
