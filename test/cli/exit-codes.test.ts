import { CommanderError } from 'commander';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exitCodeOf } from '../../src/core/errors/exit-codes.js';
import { reportError } from '../../src/cli/program.js';
import { WaveError, WaveErrors } from '../../src/core/errors/errors.js';
import { ERROR_CODES, type ErrorCode } from '../../src/core/errors/error-codes.js';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';

/** The exit every code must end the CLI with, written out here on purpose: only invalid input exits 2. */
const EXPECTED: Record<ErrorCode, 1 | 2 | 130> = {
  yaml_syntax: 2,
  manifest_invalid: 2,
  pipeline_invalid: 2,
  unknown_key: 2,
  not_supported: 2,
  missing_field: 2,
  wrong_type: 2,
  unknown_adapter: 2,
  unknown_persona: 2,
  model_tier_unmapped: 2,
  unknown_dependency: 2,
  duplicate_step: 2,
  dag_cycle: 2,
  pipeline_cycle: 2,
  thread_unordered: 2,
  file_not_found: 2,
  env_unset: 2,
  unknown_artifact: 2,
  conflicting_fields: 2,
  input_too_large: 2,
  file_exists: 2,
  template_invalid: 2,
  invalid_argument: 2,
  input_invalid: 2,
  pipeline_disabled: 2,
  run_not_found: 2,
  cassette_invalid: 2,
  io_error: 1,
  trace_export_failed: 1,
  spawn_failed: 1,
  non_zero_exit: 1,
  timeout: 1,
  stalled: 1,
  aborted: 130,
  browser_action_failed: 1,
  artifact_missing: 1,
  artifact_path_invalid: 1,
  workspace_failed: 1,
  mount_modified: 1,
  rate_limited: 1,
  auth_failed: 1,
  server_error: 1,
  context_exhausted: 1,
  max_turns: 1,
  budget_exhausted: 1,
  contract_failed: 1,
  extract_failed: 1,
  sandbox_unavailable: 1,
  token_scope_missing: 1,
  requirement_missing: 1,
  gate_rejected: 1,
  route_stopped: 1,
  artifact_source_missing: 1,
  pipeline_too_deep: 1,
  limit_exceeded: 1,
  simulate_unsatisfiable: 1,
  simulate_fixture_invalid: 1,
  replay_mismatch: 1,
  replay_exhausted: 1,
  replay_unrecorded: 1,
  replay_incomplete: 1,
  internal: 1,
};

/** Runs reportError with stderr captured. */
function report(error: unknown): { code: number; stderr: string } {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: reportError(error), stderr };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('exit codes', () => {
  it('the expectations above name every error code', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it.each(Object.keys(ERROR_CODES) as ErrorCode[])('a WaveError %s exits as its kind says', (code) => {
    const { code: exit, stderr } = report(new WaveError(code, 'something happened', { hint: 'do this' }));
    expect(exit).toBe(EXPECTED[code]);
    expect(exitCodeOf(code)).toBe(EXPECTED[code]);
    expect(stderr).toBe(`${code}: something happened\n  hint: do this\n`);
  });

  it('several problems at once exit 2 only when every one is invalid input', () => {
    const input = [new WaveError('unknown_key', 'a'), new WaveError('dag_cycle', 'b')];
    expect(report(new WaveErrors(input)).code).toBe(2);
    expect(report(new WaveErrors([...input, new WaveError('io_error', 'c')])).code).toBe(1);
  });

  it('a bad flag exits 2; help and version exit 0', () => {
    expect(report(new CommanderError(1, 'commander.unknownOption', 'unknown option')).code).toBe(2);
    expect(report(new CommanderError(0, 'commander.helpDisplayed', '')).code).toBe(0);
    expect(report(new CommanderError(0, 'commander.version', '')).code).toBe(0);
  });

  it('an unexpected error exits 1 as `internal:` with one line and no stack trace', () => {
    const { code, stderr } = report(new TypeError('cannot read properties of undefined'));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^internal: cannot read properties of undefined\n/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a raw disk fault that reached the top is an io_error naming the path and the cause, never internal', () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write '/data/runs/r/run.json'"), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/data/runs/r/run.json',
    });
    const { code, stderr } = report(enospc);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^io_error: cannot write \/data\/runs\/r\/run\.json: no space left on the device \(ENOSPC\)\n  hint: Free space on the disk holding \/data\/runs\/r/);
    expect(stderr).not.toContain('internal');
  });
});

describe('exit codes of the real CLI', () => {
  let project: string;
  beforeAll(() => {
    project = makeProject({
      'pipelines/ok.yaml': commandPipeline('ok', [['a', [], 'echo fine']]),
      'pipelines/fails.yaml': commandPipeline('fails', [['a', [], 'exit 3']]),
      'pipelines/broken.yaml': 'kind: WavePipeline\nmetadata: { name: broken }\nsteps:\n  - id: a\n    exec: { type: command, source: "true" }\n    typo_key: 1\n',
    });
  });

  it.each([
    ['a completed run exits 0', ['run', 'ok'], 0],
    ['a failed run exits 1', ['run', 'fails'], 1],
    ['an invalid pipeline exits 2', ['run', 'broken'], 2],
    ['an invalid pipeline in validate exits 2', ['validate', 'broken'], 2],
    ['an unknown flag exits 2', ['run', 'ok', '--no-such-flag'], 2],
    ['an unknown run exits 2', ['status', 'no-such-run'], 2],
    ['an unknown step exits 2', ['run', 'ok', '--steps', 'nope'], 2],
    ['an --input-file that cannot be read exits 2', ['run', 'ok', '--input-file', 'no-such-input.txt'], 2],
  ])('%s', async (_what, args, expected) => {
    const result = await runWave([...args, ...(args[0] === 'run' ? ['--output', 'text'] : [])], { cwd: project });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(expected);
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  });
});
