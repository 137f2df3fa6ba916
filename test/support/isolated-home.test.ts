import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe('the environment every test file gets', () => {
  it('has a fresh HOME of its own, no shell start-up file, and a git identity', () => {
    expect(homedir().startsWith(`${tmpdir()}/wave-test-home-`)).toBe(true);
    expect(readdirSync(homedir())).toEqual([]);
    expect(process.env.BASH_ENV).toBeUndefined();
    // A login shell, as agent CLIs start, sees that HOME and nothing a profile would have set up.
    expect(execFileSync('bash', ['-lc', 'echo "$HOME"'], { encoding: 'utf8' }).trim()).toBe(homedir());
    expect(execFileSync('git', ['var', 'GIT_AUTHOR_IDENT'], { encoding: 'utf8' })).toMatch(/^Wave Test <test@example\.invalid> \d+ [+-]\d{4}\n$/);
  });
});
