import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';

const GO_TESTS = 'package a\n\nimport "testing"\n\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {}\n';
const TS_TESTS = "import { it, test } from 'vitest';\n\ntest('one', () => {});\nit('two', () => {});\n";
const COMMIT = 'git add -A && git -c user.name=t -c user.email=t@example.invalid commit -q -m work';

const planted: string[] = [];
afterAll(() => planted.forEach((file) => rmSync(file, { force: true })));

/** A host file a hostile git setting would create; it must never exist. */
function hostFile(name: string): string {
  const path = join(tmpdir(), `wave-${name}-${randomBytes(6).toString('hex')}`);
  planted.push(path);
  return path;
}

/** A step command that deletes a test while planting git settings that would touch the host files if Wave's git read them. */
function hostileCommand(marks: { monitor: string; ownMonitor: string; clean: string; hook: string }): string {
  return [
    // Its own git folder's config: read-only in a sandbox, writable on the host; Wave never reads it either way.
    `git config core.fsmonitor "touch ${marks.ownMonitor}" 2>/dev/null`,
    'git init -q evil',
    `git -C evil config core.fsmonitor "touch ${marks.monitor}"`,
    `git -C evil config filter.x.clean "touch ${marks.clean}; cat"`,
    'git -C evil config core.hooksPath "$PWD/evil-hooks"',
    `mkdir evil-hooks && printf '#!/bin/sh\\ntouch ${marks.hook}\\n' > evil-hooks/post-index-change && chmod +x evil-hooks/post-index-change`,
    "printf '* filter=x\\n' > .gitattributes",
    "sed -i '/TestTwo/d' a_test.go",
    'echo "gitdir: $PWD/evil/.git" > .git',
  ].join('\n');
}

/** A worktree command step on its own branch, with one contract (`contract` is its YAML flow mapping's inner keys). */
function worktreeStep(id: string, command: string, contract: string): string {
  return `  - id: ${id}
    workspace: { type: worktree, branch: ${id} }
    exec: { type: command, source: ${JSON.stringify(command)} }
    handover:
      contract: { ${contract}, on_failure: warn }
`;
}

/** A project repository (main: one commit of `files`) running the steps as pipeline `p`. */
async function runSteps(files: Record<string, string>, steps: string[]): Promise<{ run: { code: number; stderr: string }; record: RunRecord }> {
  const project = makeProject({ ...files, '.gitignore': '.wave/\n', 'pipelines/p.yaml': `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}` });
  await makeRepository(project);
  const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
  return { run, record: latestRun(project) };
}

/** The one contract result of a step: passed, and its errors joined. */
function verdict(record: RunRecord, step: string): { passed: boolean; errors: string } {
  const [result] = record.steps[step]!.contracts;
  return { passed: result!.passed, errors: result!.errors.join('\n') };
}

describe('test_diff and test_count_baseline on a Go project (the defaults)', () => {
  const [monitor, ownMonitor, clean, hook, folderMonitor] = ['fsmonitor', 'own-fsmonitor', 'clean', 'hook', 'folder-fsmonitor'].map(hostFile) as [
    string,
    string,
    string,
    string,
    string,
  ];
  let record: RunRecord;
  let code: number;
  let stderr: string;

  beforeAll(async () => {
    const hostile = hostileCommand({ monitor, ownMonitor, clean, hook });
    const folder = `git init -q . && git config core.fsmonitor "touch ${folderMonitor}" && echo x > a_test.go`;
    ({
      record,
      run: { code, stderr },
    } = await runSteps({ 'a_test.go': GO_TESTS, 'a.go': 'package a\n' }, [
      worktreeStep('deletes', "sed -i '/TestTwo/d' a_test.go", 'type: test_diff'),
      worktreeStep('replaces', "sed -i 's/TestTwo/TestThree/' a_test.go", 'type: test_diff'),
      worktreeStep('allowed', "sed -i '/TestTwo/d' a_test.go", 'type: test_diff, max_test_deletions: 1'),
      worktreeStep('elsewhere', "sed -i '/TestTwo/d' a_test.go && mv a_test.go b.go", 'type: test_diff, test_file_pattern: ["*.txt"]'),
      worktreeStep('committed', `sed -i '/TestTwo/d' a_test.go && ${COMMIT}`, 'type: test_diff'),
      worktreeStep('baseline', `sed -i '/TestTwo/d' a_test.go && ${COMMIT}`, 'type: test_count_baseline'),
      worktreeStep('baseline-kept', `sed -i 's/TestTwo/TestThree/' a_test.go && ${COMMIT}`, 'type: test_count_baseline, base_ref: main'),
      worktreeStep('no-parent', 'true', 'type: test_count_baseline'),
      worktreeStep('bad-ref', `${COMMIT} --allow-empty`, 'type: test_count_baseline, base_ref: no-such-ref'),
      worktreeStep('hostile', hostile, 'type: test_diff'),
      `  - id: folder\n    exec: { type: command, source: ${JSON.stringify(folder)} }\n    handover:\n      contract: { type: test_diff, on_failure: warn }\n`,
    ]));
  }, 180_000);

  it('runs every step (a failed contract only warns here)', () => {
    expect(code, stderr).toBe(0);
  });

  it('test_diff fails a step that deletes a test function, in Wave words', () => {
    expect(verdict(record, 'deletes')).toEqual({
      passed: false,
      errors: 'test_diff: net 1 test declaration(s) removed (max allowed 0, removed=1 added=0); persona must replace deleted tests, not net-delete them',
    });
    expect(record.steps.deletes!.contracts[0]!.action).toBe('warn');
  });

  it('test_diff passes a step that replaces it, or deletes no more than max_test_deletions', () => {
    expect(verdict(record, 'replaces')).toEqual({ passed: true, errors: '' });
    expect(verdict(record, 'allowed')).toEqual({ passed: true, errors: '' });
  });

  it('test_diff looks only at the test files of test_file_pattern', () => {
    expect(verdict(record, 'elsewhere')).toEqual({ passed: true, errors: '' });
  });

  it("test_diff sees uncommitted changes only, as Wave's does; test_count_baseline sees the commit", () => {
    expect(verdict(record, 'committed').passed).toBe(true);
    expect(verdict(record, 'baseline')).toEqual({
      passed: false,
      errors:
        'test_count_baseline: HEAD has 1 test declarations vs HEAD~1=2 (net deletion 1, max allowed 0); persona must replace removed tests, not net-delete them across commits',
    });
    expect(verdict(record, 'baseline-kept')).toEqual({ passed: true, errors: '' });
  });

  it('a base_ref that names no commit fails the contract with a hint, where Wave passes', () => {
    const noParent = verdict(record, 'no-parent');
    expect(noParent.passed).toBe(false);
    expect(noParent.errors).toContain('test_count_baseline: `HEAD~1` names no commit of the repository');
    expect(noParent.errors).toContain('Check that base_ref names a commit');
    expect(verdict(record, 'bad-ref').errors).toContain('`no-such-ref` names no commit of the repository');
  });

  it('a plain folder workspace fails the contract: git is not run in a folder the step controls', () => {
    const folder = verdict(record, 'folder');
    expect(folder.passed).toBe(false);
    expect(folder.errors).toContain("test_diff: the step's workspace is a plain folder, not a git worktree");
    expect(folder.errors).toContain('Set `workspace: { type: worktree, branch: <name> }`');
  });

  it("a workspace .git, git folder config, hooks and attributes the step planted run nothing; the step's changes are still read", () => {
    for (const file of [monitor, ownMonitor, clean, hook, folderMonitor]) expect(existsSync(file), file).toBe(false);
    expect(verdict(record, 'hostile').errors).toContain('removed=1 added=0');
  });
});

describe.skipIf(!backendAvailable('bubblewrap'))('test_diff of a step in a bubblewrap sandbox', () => {
  it("reads the step's changes through Wave's repositories, running nothing the step planted", async () => {
    const marks = { monitor: hostFile('fsmonitor'), ownMonitor: hostFile('own-fsmonitor'), clean: hostFile('clean'), hook: hostFile('hook') };
    const { run, record } = await runSteps({ 'wave.yaml': `${SHELL_MANIFEST}${sandboxRuntime('bubblewrap')}`, 'a_test.go': GO_TESTS }, [
      worktreeStep('replaces', "sed -i 's/TestTwo/TestThree/' a_test.go", 'type: test_diff'),
      worktreeStep('hostile', hostileCommand(marks), 'type: test_diff'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(verdict(record, 'replaces')).toEqual({ passed: true, errors: '' });
    expect(verdict(record, 'hostile').errors).toContain('removed=1 added=0');
    for (const file of Object.values(marks)) expect(existsSync(file), file).toBe(false);
  }, 120_000);
});

describe("test_diff on a TypeScript project: the manifest's project patterns", () => {
  it('counts `test(` and `it(` in *.test.ts files, and ignores Go files', async () => {
    const manifest = `${SHELL_MANIFEST}project:\n  test_file_pattern: ["*.test.ts"]\n  test_func_pattern: '(?m)^\\s*(it|test)\\('\n`;
    const { run, record } = await runSteps({ 'wave.yaml': manifest, 'src/a.test.ts': TS_TESTS, 'a_test.go': GO_TESTS }, [
      worktreeStep('ts', "sed -i '/two/d' src/a.test.ts", 'type: test_diff'),
      worktreeStep('go', "sed -i '/TestTwo/d' a_test.go", 'type: test_diff'),
      worktreeStep('own', "sed -i '/TestTwo/d' a_test.go", `type: test_diff, test_file_pattern: ["*_test.go"], test_func_pattern: '^func Test'`),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(verdict(record, 'ts').errors).toContain('test_diff: net 1 test declaration(s) removed (max allowed 0, removed=1 added=0)');
    expect(verdict(record, 'go')).toEqual({ passed: true, errors: '' });
    // The contract's own fields come before the manifest's.
    expect(verdict(record, 'own').errors).toContain('removed=1 added=0');
  }, 120_000);

  it('refuses a test_func_pattern that is no regular expression before anything runs', async () => {
    const manifest = `${SHELL_MANIFEST}project:\n  test_func_pattern: '(unclosed'\n`;
    const project = makeProject({
      'wave.yaml': manifest,
      'pipelines/p.yaml': `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${worktreeStep('s', 'true', 'type: test_diff')}`,
    });
    await makeRepository(project);
    const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('test_func_pattern `(unclosed` is not a usable regular expression');
  }, 60_000);
});
