import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contracts/check-contract.js';
import { contractAction, stopsChecking } from '../../src/contracts/policy.js';
import { contractRequirements, REQUIREMENTS_HEADING } from '../../src/contracts/requirements.js';
import type { AskModel, CheckEnvironment, PlannedContract } from '../../src/contracts/types.js';

const workspace = mkdtempSync(join(tmpdir(), 'wave-contract-'));
const noModel: AskModel = async () => ({ ok: false, message: 'no model in this test' });
const env = (text?: string, ask: AskModel = noModel): CheckEnvironment => ({
  target: { text, label: 'out.md' },
  workspace,
  projectRoot: tmpdir(),
  env: { PATH: process.env.PATH!, MARK: 'from-env' },
  signal: new AbortController().signal,
  ask,
});
const contract = (c: Partial<PlannedContract> & Pick<PlannedContract, 'type'>): PlannedContract => ({ target: { kind: 'file', path: 'out.md' }, ...c });

describe('non_empty_file', () => {
  it('fails a missing or whitespace-only target and passes content', async () => {
    expect((await checkContract(contract({ type: 'non_empty_file' }), env())).errors).toEqual(['out.md does not exist']);
    expect((await checkContract(contract({ type: 'non_empty_file' }), env(' \n'))).errors).toEqual(['out.md is empty']);
    expect((await checkContract(contract({ type: 'non_empty_file' }), env('# Map'))).passed).toBe(true);
  });
});

describe('test_suite', () => {
  it('passes on exit 0 in the workspace with the step environment, keeping the output', async () => {
    const result = await checkContract(contract({ type: 'test_suite', command: 'pwd; echo $MARK' }), env());
    expect(result.passed).toBe(true);
    expect(result.output?.trim().split('\n')).toEqual([workspace, 'from-env']);
  });

  it('fails on a non-zero exit with the command output in the errors', async () => {
    const result = await checkContract(contract({ type: 'test_suite', command: 'echo "1 test failed: parses dates"; exit 3' }), env());
    expect(result.passed).toBe(false);
    expect(result.errors).toEqual(['`echo "1 test failed: parses dates"; exit 3` exited with code 3', 'output:\n1 test failed: parses dates']);
  });

  it('runs in the project root when asked, and fails a command past its timeout', async () => {
    const root = await checkContract(contract({ type: 'test_suite', command: 'pwd', dir: 'project_root' }), env());
    expect(root.output?.trim()).toBe(tmpdir());
    const slow = await checkContract(contract({ type: 'test_suite', command: 'sleep 30', timeout: '1s' }), env());
    expect(slow.errors[0]).toContain('ran past 1s');
  });
});

describe('llm_judge', () => {
  const judge =
    (answer: string): AskModel =>
    async () => ({ ok: true, text: answer });
  it('fails below the threshold with the judge reasons, passes at or above it', async () => {
    const c = contract({ type: 'llm_judge', criteria: ['names files'], threshold: 0.8 });
    const low = await checkContract(c, env('some text', judge('```json\n{"score": 0.4, "reasons": ["no file named"]}\n```')));
    expect(low).toMatchObject({ passed: false, errors: ['judge score 0.4 is below the threshold 0.8', 'no file named'] });
    expect((await checkContract(c, env('some text', judge('{"score": 0.8}')))).passed).toBe(true);
  });

  it('fails when the judge answers without a score or cannot answer', async () => {
    const c = contract({ type: 'llm_judge' });
    expect((await checkContract(c, env('t', judge('looks fine')))).errors[0]).toContain('without a numeric score');
    expect((await checkContract(c, env('t'))).errors[0]).toContain('no model in this test');
  });
});

describe('on_failure policy', () => {
  it('maps each policy to its action; retry turns into fail once max_retries are used', () => {
    const c = (on_failure?: PlannedContract['on_failure'], max_retries?: number) => contract({ type: 'non_empty_file', on_failure, max_retries });
    expect(contractAction(c('warn'), true, 0)).toBe('pass');
    expect(contractAction(c(), false, 0)).toBe('fail');
    expect(['warn', 'continue', 'skip'].map((p) => contractAction(c(p as 'warn'), false, 0))).toEqual(['warn', 'continue', 'skip']);
    expect([0, 1, 2].map((used) => contractAction(c('retry', 2), false, used))).toEqual(['retry', 'retry', 'fail']);
    expect(contractAction(c('retry', 0), false, 0)).toBe('fail');
    expect(contractAction(contract({ type: 'non_empty_file', must_pass: false }), false, 0)).toBe('warn');
    expect(['pass', 'warn', 'skip', 'fail'].map((a) => stopsChecking(a as 'pass'))).toEqual([false, false, true, true]);
  });
});

describe('requirements text', () => {
  it('tells the agent the schema, the file, the command and the criteria', () => {
    const text = contractRequirements([
      contract({ type: 'json_schema', schemaObject: { type: 'object', required: ['verdict'] }, target: { kind: 'file', path: 'review.json' } }),
      contract({ type: 'non_empty_file', target: { kind: 'file', path: 'map.md' } }),
      contract({ type: 'test_suite', command: 'npm test', dir: 'project_root' }),
      contract({ type: 'llm_judge', criteria: ['cites files'], threshold: 0.9 }),
    ]);
    expect(text).toContain(REQUIREMENTS_HEADING);
    expect(text).toContain('Write `review.json` containing JSON only');
    expect(text).toContain('"required": [\n    "verdict"\n  ]');
    expect(text).toContain('`map.md` must exist and must not be empty');
    expect(text).toContain('`npm test` will run in the project root and must exit with code 0');
    expect(text).toContain('(passing: 0.9)');
    expect(text).toContain('  - cites files');
    expect(contractRequirements([])).toBe('');
  });
});
