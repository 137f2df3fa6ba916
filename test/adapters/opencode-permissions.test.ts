import { describe, expect, it } from 'vitest';
import { openCodePermissions, worktreePathPatterns } from '../../src/adapters/opencode/permissions.js';
import { cursorPermissions } from '../../src/adapters/cursor/permissions.js';

describe("the permission block of opencode.json, with Wave's meaning", () => {
  it('no allow list, or one with *: OpenCode allows every tool but the denied ones and patterns', () => {
    expect(openCodePermissions([], ['Bash(git push *)', 'WebFetch'])).toEqual({ bash: { '*': 'allow', 'git push *': 'deny' }, edit: 'allow', webfetch: 'deny' });
    // `*` is Wave's every tool, not a tool OpenCode knows by that name: nothing is denied because of it.
    expect(openCodePermissions(['*'], [])).toEqual({ bash: 'allow', edit: 'allow', webfetch: 'allow' });
    expect(openCodePermissions(['*'], ['Write(secrets/*)'])).toEqual({ bash: 'allow', edit: { '*': 'allow', 'secrets/*': 'deny' }, webfetch: 'allow' });
  });

  it('deny ["*"] denies every permission, whatever is allowed', () => {
    expect(openCodePermissions(['*', 'Bash'], ['*'])).toEqual({ '*': 'deny' });
  });

  it('an allow list denies everything else; its patterns allow only matching calls; deny rules come last and win', () => {
    expect(openCodePermissions(['Read', 'Bash'], [])).toEqual({ '*': 'deny', read: 'allow', bash: 'allow' });
    const permission = openCodePermissions(['Read', 'Bash(git *)', 'Write(.agents/output/*)'], ['Bash(git push *)']);
    expect(permission).toEqual({
      '*': 'deny',
      read: 'allow',
      bash: { '*': 'deny', 'git *': 'allow', 'git push *': 'deny' },
      edit: { '*': 'deny', '.agents/output/*': 'allow' },
    });
    // OpenCode applies the last rule that matches: the deny pattern sits after the allow pattern it narrows.
    expect(Object.keys(permission.bash as object)).toEqual(['*', 'git *', 'git push *']);
    // A step that installs skills keeps OpenCode's skill tool.
    expect(openCodePermissions(['Read'], [], true)).toEqual({ '*': 'deny', read: 'allow', skill: 'allow' });
  });

  it("path patterns are given relative to each folder that may be OpenCode's worktree: the git root above, or /", () => {
    expect(worktreePathPatterns('.agents/output/*', '/p/.wave/ws/step')).toEqual([
      '.agents/output/*',
      'step/.agents/output/*',
      'ws/step/.agents/output/*',
      '.wave/ws/step/.agents/output/*',
      'p/.wave/ws/step/.agents/output/*',
    ]);
    // An absolute pattern is relative to each folder it lies under; a pattern leading out of the workspace keeps its way up.
    expect(worktreePathPatterns('/p/docs/*', '/p/ws')).toEqual(['docs/*', 'p/docs/*']);
    const permission = openCodePermissions(['Write(out/*)', 'Bash(git *)'], [], false, '/w/s');
    expect(permission.edit).toEqual({ '*': 'deny', 'out/*': 'allow', 's/out/*': 'allow', 'w/s/out/*': 'allow' });
    // Command patterns are not paths.
    expect(permission.bash).toEqual({ '*': 'deny', 'git *': 'allow' });
  });

  it('Claude tool names become OpenCode permission names; OpenCode names pass through', () => {
    expect(openCodePermissions(['Glob', 'Grep', 'LS', 'WebSearch', 'Task', 'TodoWrite', 'MultiEdit', 'lsp'], [])).toEqual({
      '*': 'deny',
      glob: 'allow',
      grep: 'allow',
      list: 'allow',
      websearch: 'allow',
      task: 'allow',
      todowrite: 'allow',
      edit: 'allow',
      lsp: 'allow',
    });
  });
});

describe("Cursor's permission tokens, with Wave's *", () => {
  it('* stands for every command and every file read and write, in either list', () => {
    expect(cursorPermissions(['*'], ['*'])).toEqual({ allow: ['Shell(*)', 'Read(**)', 'Write(**)'], deny: ['Shell(*)', 'Read(**)', 'Write(**)'] });
    expect(cursorPermissions(['Read', 'Write(*)'], ['Bash(git push *)'])).toEqual({ allow: ['Read(**)', 'Write(**)'], deny: ['Shell(git)'] });
  });
});
