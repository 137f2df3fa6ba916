import { describe, expect, it } from 'vitest';
import { countDeclarations, DEFAULT_TEST_FUNC_PATTERN, goRegex, matchesAnyGlob, testDeclarations } from '../../src/contracts/test-declarations.js';
import { declarationLines } from '../../src/contracts/test-diff-check.js';
import { checkContract } from '../../src/contracts/check-contract.js';
import { contractRequirements } from '../../src/contracts/requirements.js';
import type { CheckEnvironment, PlannedContract } from '../../src/contracts/types.js';
import type { StepGit } from '../../src/contracts/step-git.js';

const GO = 'package a\n\nfunc TestOne(t *testing.T) {}\n  func BenchmarkTwo(b *testing.B) {}\nfunc helper() {}\n// func TestNot\n';

describe('test declarations', () => {
  it("reads Go's leading inline flags as JavaScript flags", () => {
    expect(goRegex('(?mi)^test').flags).toBe('im');
    expect(goRegex('(?m)^test').test('x\nTest')).toBe(false);
    expect(goRegex('(?mi)^test').test('x\nTest')).toBe(true);
    expect(() => goRegex('(unclosed')).toThrow();
  });

  it("counts Go's tests, benchmarks, examples and fuzz functions by default", () => {
    expect(countDeclarations(GO, goRegex(DEFAULT_TEST_FUNC_PATTERN))).toBe(2);
  });

  it('matches a glob against the whole path or the base name, `*` never crossing a folder', () => {
    expect(matchesAnyGlob('pkg/sub/a_test.go', ['*_test.go'])).toBe(true);
    expect(matchesAnyGlob('pkg/a.go', ['*_test.go'])).toBe(false);
    expect(matchesAnyGlob('src/a.test.ts', ['src/*.test.ts'])).toBe(true);
    expect(matchesAnyGlob('src/deep/a.test.ts', ['src/*.test.ts'])).toBe(false);
  });

  it('counts declarations on added and removed lines of a diff, not on file headers', () => {
    const diff =
      '--- a/a_test.go\n+++ b/a_test.go\n@@ -1 +1 @@\n-func TestOld(t *testing.T) {}\n+func TestNew(t *testing.T) {}\n-func TestGone(t *testing.T) {}\n func TestKept(t *testing.T) {}\n';
    expect(declarationLines(diff, goRegex(DEFAULT_TEST_FUNC_PATTERN))).toEqual({ added: 1, removed: 2 });
  });

  it("takes the contract's files and pattern, else Wave's Go defaults", () => {
    const contract = { type: 'test_diff', target: { kind: 'output' } } as const;
    expect(testDeclarations(contract).files).toEqual(['*_test.go']);
    expect(testDeclarations({ ...contract, test_file_pattern: ['*.py'], test_func_pattern: '^def test_' }).pattern).toBe('^def test_');
  });
});

describe('the requirements a prompt step is told', () => {
  it('names the test files, the base and the deletions allowed', () => {
    const text = contractRequirements([
      { type: 'test_diff', target: { kind: 'output' }, test_file_pattern: ['*.test.ts'] },
      { type: 'test_count_baseline', target: { kind: 'output' }, max_test_deletions: 2 },
    ]);
    expect(text).toContain('- Your uncommitted changes to the test files (`*.test.ts`) may remove at most 0 more test declarations than they add');
    expect(text).toContain('- Your branch must hold at least as many test declarations in the test files (`*_test.go`) as HEAD~1, less 2');
  });
});

describe('test_count_baseline through a step git', () => {
  const files = {
    HEAD: [{ path: 'a_test.go', blob: 'h' }],
    base: [
      { path: 'a_test.go', blob: 'b' },
      { path: 'b.go', blob: 'x' },
    ],
  };
  const blobs: Record<string, string> = { h: 'func TestOne() {}\n', b: 'func TestOne() {}\nfunc TestTwo() {}\n', x: 'func TestNot() {}\n' };
  const git: StepGit = {
    diffFromHead: () => Promise.reject(new Error('unused')),
    commitOf: (ref) => (ref === 'HEAD' || ref === 'base' ? Promise.resolve(ref) : Promise.reject(new Error(`\`${ref}\` names no commit`))),
    filesOf: (commit) => Promise.resolve(files[commit as keyof typeof files]),
    blobText: (blob) => Promise.resolve(blobs[blob]!),
  };
  const env = { git } as unknown as CheckEnvironment;
  const contract = (extra: Partial<PlannedContract>): PlannedContract => ({ type: 'test_count_baseline', target: { kind: 'output' }, base_ref: 'base', ...extra });

  it('compares the counts in the test files of both commits', async () => {
    expect((await checkContract(contract({}), env)).errors).toEqual([
      'test_count_baseline: HEAD has 1 test declarations vs base=2 (net deletion 1, max allowed 0); persona must replace removed tests, not net-delete them across commits',
    ]);
    expect(await checkContract(contract({ max_test_deletions: 1 }), env)).toEqual({ passed: true, errors: [] });
  });

  it('fails on a git error rather than pass', async () => {
    const result = await checkContract(contract({ base_ref: 'gone' }), env);
    expect(result.passed).toBe(false);
    expect(result.errors[0]).toBe('test_count_baseline: `gone` names no commit');
  });
});
