import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildCuratedEnv, secretValuesOf } from '../../src/process/environment.js';

const parent = {
  HOME: '/home/me',
  PATH: '/usr/bin:/bin',
  TERM: 'xterm',
  TMPDIR: '/var/tmp',
  AWS_PROFILE: 'prod',
  GITHUB_TOKEN: 'ghp_parent_token_value',
  OPENAI_API_KEY: 'sk-passed-through-value',
  UNSET_IN_PARENT: undefined,
};

describe('buildCuratedEnv', () => {
  it('keeps exactly the base names, the passthrough names, the step env and the WAVE_ variables', () => {
    const env = buildCuratedEnv({
      parent,
      passthrough: ['OPENAI_API_KEY', 'NOT_IN_PARENT', 'UNSET_IN_PARENT'],
      stepEnv: { STEP_VAR: 'x' },
      runId: 'hello-20250101-000000-abcd',
      stepId: 'count',
      workspace: '/work/ws',
    });
    expect(env).toEqual({
      HOME: '/home/me',
      PATH: '/usr/bin:/bin',
      TERM: 'xterm',
      TMPDIR: '/var/tmp',
      OPENAI_API_KEY: 'sk-passed-through-value',
      STEP_VAR: 'x',
      WAVE_RUN_ID: 'hello-20250101-000000-abcd',
      WAVE_STEP_ID: 'count',
      WAVE_WORKSPACE: '/work/ws',
    });
  });

  it('defaults TMPDIR, lets the step override base names but never the WAVE_ variables', () => {
    const env = buildCuratedEnv({
      parent: { PATH: '/bin' },
      passthrough: [],
      stepEnv: { PATH: '/opt/bin', WAVE_STEP_ID: 'forged' },
      runId: 'r',
      stepId: 's',
      workspace: '/w',
    });
    expect(env).toEqual({ PATH: '/opt/bin', TMPDIR: tmpdir(), WAVE_RUN_ID: 'r', WAVE_STEP_ID: 's', WAVE_WORKSPACE: '/w' });
  });
});

describe('secretValuesOf', () => {
  it('returns the values of the passthrough names that are set and not empty', () => {
    expect(secretValuesOf({ ...parent, EMPTY: '' }, ['OPENAI_API_KEY', 'EMPTY', 'NOT_IN_PARENT', 'GITHUB_TOKEN'])).toEqual(['sk-passed-through-value', 'ghp_parent_token_value']);
  });
});
