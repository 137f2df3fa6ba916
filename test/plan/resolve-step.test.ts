import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKILLS_SOURCE_FOLDER } from '../../src/config/checks/skill-refs.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { COMMAND_ADAPTER, resolveAdapter } from '../../src/plan/resolve-step.js';
import { SHELL_MANIFEST } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

/** The plan of the shell manifest with one command step `a` carrying the given extra keys. */
async function stepWith(extra: string, manifest = SHELL_MANIFEST, options: { timeoutMinutes?: number } = {}) {
  const { plan } = await planProject({ manifest, pipeline: pipelineOf(`{ id: a, exec: { type: command, source: "true" }${extra} }`) }, options);
  return attemptSteps(plan)[0]!;
}

/** The shell manifest with its runtime timeouts replaced by the given runtime lines. */
function withRuntime(lines: string): string {
  return SHELL_MANIFEST.replace('  timeouts: { process_grace_seconds: 1 }\n', lines);
}

// A retry is told what failed, in the session it continues, and a step whose attempts are spent fails, unless the step says otherwise.
const RETRY_DEFAULTS = { adaptPrompt: true, continueSession: true, onFailure: 'fail' };

describe('retry policy', () => {
  it.each([
    ['none', { maxAttempts: 1, backoff: 'fixed', baseDelayMs: 0, maxDelayMs: 0 }],
    ['standard', { maxAttempts: 3, backoff: 'exponential', baseDelayMs: 1000, maxDelayMs: 30_000 }],
    ['aggressive', { maxAttempts: 5, backoff: 'exponential', baseDelayMs: 200, maxDelayMs: 30_000 }],
    ['patient', { maxAttempts: 3, backoff: 'exponential', baseDelayMs: 5000, maxDelayMs: 90_000 }],
  ])('preset %s', async (policy, expected) => {
    expect((await stepWith(`, retry: { policy: ${policy} }`)).retry).toEqual({ ...expected, ...RETRY_DEFAULTS });
  });

  it('is one attempt with a linear one-second, one-minute-capped backoff when the step says nothing', async () => {
    expect((await stepWith('')).retry).toEqual({ maxAttempts: 1, backoff: 'linear', baseDelayMs: 1000, maxDelayMs: 60_000, ...RETRY_DEFAULTS });
  });

  it('lets explicit fields override the preset field by field', async () => {
    const step = await stepWith(', retry: { policy: aggressive, max_attempts: 7, backoff: linear, base_delay: 2s, max_delay: 1m30s }');
    expect(step.retry).toEqual({ maxAttempts: 7, backoff: 'linear', baseDelayMs: 2000, maxDelayMs: 90_000, ...RETRY_DEFAULTS });
  });

  it('reads a bare number as seconds', async () => {
    expect((await stepWith(', retry: { max_attempts: 2, base_delay: 0.5, max_delay: 4 }')).retry).toEqual({
      maxAttempts: 2,
      backoff: 'linear',
      baseDelayMs: 500,
      maxDelayMs: 4000,
      ...RETRY_DEFAULTS,
    });
  });

  it('continues the agent session on a retry unless retry.continue_session is false', async () => {
    expect((await stepWith('')).retry.continueSession).toBe(true);
    expect((await stepWith(', retry: { continue_session: true }')).retry.continueSession).toBe(true);
    expect((await stepWith(', retry: { max_attempts: 2, continue_session: false }')).retry).toMatchObject({ maxAttempts: 2, continueSession: false, adaptPrompt: true });
  });

  it('caps the delay at runtime.timeouts.retry_max_delay_seconds when neither the step nor a preset does', async () => {
    const manifest = withRuntime('  timeouts: { retry_max_delay_seconds: 12 }\n');
    expect((await stepWith(', retry: { max_attempts: 4 }', manifest)).retry.maxDelayMs).toBe(12_000);
    expect((await stepWith(', retry: { policy: standard }', manifest)).retry.maxDelayMs).toBe(30_000);
    expect((await stepWith(', retry: { max_delay: 3s }', manifest)).retry.maxDelayMs).toBe(3000);
  });
});

describe('step timeout', () => {
  it.each([
    ["the step's timeout_minutes beats everything", ', timeout_minutes: 2', 7, '  timeouts: { step_default_minutes: 11 }\n  default_timeout_minutes: 13\n', 2],
    ['--timeout beats the manifest', '', 7, '  timeouts: { step_default_minutes: 11 }\n  default_timeout_minutes: 13\n', 7],
    ['runtime.timeouts.step_default_minutes beats default_timeout_minutes', '', undefined, '  timeouts: { step_default_minutes: 11 }\n  default_timeout_minutes: 13\n', 11],
    ['runtime.default_timeout_minutes applies alone', '', undefined, '  default_timeout_minutes: 13\n', 13],
    ['30 minutes when nothing is set', '', undefined, '', 30],
  ])('%s', async (_why, extra, cliMinutes, timeouts, minutes) => {
    const step = await stepWith(extra, withRuntime(timeouts), cliMinutes === undefined ? {} : { timeoutMinutes: cliMinutes });
    expect(step.timeoutMs).toBe(minutes * 60_000);
  });

  it('takes fractions of a minute', async () => {
    expect((await stepWith(', timeout_minutes: 0.5')).timeoutMs).toBe(30_000);
  });
});

const PERSONA_MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude:
    binary: claude
    default_model: sonnet
    env: { FROM_ADAPTER: a, PORT: 8080 }
    default_permissions: { allowed_tools: [Read], deny: [Bash] }
  local: { type: llm, base_url: "http://127.0.0.1:1/v1", model: qwen, default_model: ignored }
personas:
  reviewer:
    adapter: claude
    model: opus
    env: { SHARED: persona, ONLY_PERSONA: 1 }
    permissions: { allowed_tools: [Grep] }
    sandbox: { allowed_domains: [api.example.com] }
    skills: [review]
  plain: { adapter: claude }
  writer: { adapter: local, temperature: 0.2, permissions: { deny: [Write] } }
`;

/** The plan's steps for prompt steps given as YAML flow mappings, by id. */
async function personaSteps(...steps: string[]) {
  const { plan, dir } = await planProject({ manifest: PERSONA_MANIFEST, pipeline: pipelineOf(...steps), files: { 'skills/review/SKILL.md': '# Review\n' } });
  return { steps: Object.fromEntries(attemptSteps(plan).map((step) => [step.id, step])), dir };
}

describe('persona -> adapter -> defaults', () => {
  it('takes the model from the step, else the persona, else the adapter model, else its default_model', async () => {
    const { steps } = await personaSteps(
      '{ id: step, persona: reviewer, model: haiku, exec: { source: hi } }',
      '{ id: persona, persona: reviewer, exec: { source: hi } }',
      '{ id: adapter-default, persona: plain, exec: { source: hi } }',
      '{ id: adapter-model, persona: writer, exec: { source: hi } }',
    );
    expect(Object.fromEntries(Object.entries(steps).map(([id, step]) => [id, step.model]))).toEqual({
      step: 'haiku',
      persona: 'opus',
      'adapter-default': 'sonnet',
      'adapter-model': 'qwen',
    });
  });

  it("runs the step's own adapter instead of the persona's, with that adapter's model", async () => {
    const { steps } = await personaSteps('{ id: a, persona: plain, adapter: local, exec: { source: hi } }');
    expect(steps.a!.adapter.name).toBe('local');
    expect(steps.a!.adapter.type).toBe('llm');
    expect(steps.a!.model).toBe('qwen');
  });

  it('merges the env of the persona under the step, and keeps the adapter env on the adapter, all as strings', async () => {
    const { steps } = await personaSteps('{ id: a, persona: reviewer, env: { SHARED: step, N: 2 }, exec: { source: hi } }');
    expect(steps.a!.env).toEqual({ SHARED: 'step', ONLY_PERSONA: '1', N: '2' });
    expect(steps.a!.adapter).toEqual({
      name: 'claude',
      type: 'claude',
      binary: 'claude',
      args: undefined,
      model: 'sonnet',
      env: { FROM_ADAPTER: 'a', PORT: '8080' },
      isolated: false,
      baseUrl: undefined,
      apiKeyEnv: undefined,
      prices: undefined,
    });
  });

  it("takes each permission list from the persona, else the adapter's default_permissions, else none", async () => {
    const { steps, dir } = await personaSteps(
      '{ id: reviewer, persona: reviewer, exec: { source: hi } }',
      '{ id: plain, persona: plain, exec: { source: hi } }',
      '{ id: writer, persona: writer, exec: { source: hi } }',
    );
    expect(steps.reviewer!.persona).toEqual({
      name: 'reviewer',
      systemPrompt: '',
      allowedTools: ['Grep'],
      deniedTools: ['Bash'],
      allowedDomains: ['api.example.com'],
      skills: ['review'],
    });
    // The step's merged skills carry the folder each is copied from.
    expect(steps.reviewer!.skills).toEqual([{ name: 'review', folder: resolve(dir, SKILLS_SOURCE_FOLDER, 'review') }]);
    expect([steps.plain!.persona!.allowedTools, steps.plain!.persona!.deniedTools]).toEqual([['Read'], ['Bash']]);
    expect([steps.writer!.persona!.allowedTools, steps.writer!.persona!.deniedTools]).toEqual([[], ['Write']]);
    expect([steps.writer!.persona!.temperature, 'temperature' in steps.plain!.persona!]).toEqual([0.2, false]);
  });

  it('runs a command step on the shell whatever its persona says, with no persona', async () => {
    const { steps } = await personaSteps('{ id: a, persona: reviewer, exec: { type: command, source: "true" } }');
    expect(steps.a!.adapter).toBe(COMMAND_ADAPTER);
    expect(steps.a!.persona).toBeUndefined();
    expect(steps.a!.fallbacks).toEqual([]);
  });

  it('names an adapter the manifest does not declare', () => {
    let error: unknown;
    try {
      resolveAdapter({ kind: 'WaveManifest', adapters: {} }, 'nowhere');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('unknown_adapter');
    expect((error as WaveError).message).toBe('adapter `nowhere` is not declared in the manifest');
  });
});

describe('base protocol', () => {
  const manifest = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
personas:
  reviewer: { adapter: claude, system_prompt_file: personas/reviewer.md }
  base: { adapter: claude, system_prompt_file: personas/base-protocol.md }
  elsewhere: { adapter: claude, system_prompt_file: prompts/elsewhere.md }
`;
  const pipeline = pipelineOf(
    '{ id: reviewer, persona: reviewer, exec: { source: hi } }',
    '{ id: base, persona: base, exec: { source: hi } }',
    '{ id: elsewhere, persona: elsewhere, exec: { source: hi } }',
  );
  const files = {
    'personas/base-protocol.md': 'Always write to output/.\n\n\n',
    'personas/reviewer.md': 'You review code.\n',
    'prompts/elsewhere.md': 'You live in another folder.\n',
  };

  it("prepends base-protocol.md of the persona's folder to its prompt, once, and nowhere else", async () => {
    const { plan } = await planProject({ manifest, pipeline, files });
    const prompts = Object.fromEntries(attemptSteps(plan).map((step) => [step.id, step.persona!.systemPrompt]));
    expect(prompts).toEqual({
      reviewer: 'Always write to output/.\n\nYou review code.\n',
      base: 'Always write to output/.\n\n\n',
      elsewhere: 'You live in another folder.\n',
    });
  });

  it('leaves the prompt alone when the folder has no base-protocol.md', async () => {
    const only = pipelineOf('{ id: reviewer, persona: reviewer, exec: { source: hi } }');
    const { plan } = await planProject({ manifest: manifest.replace(/  (base|elsewhere): .*\n/g, ''), pipeline: only, files: { 'personas/reviewer.md': 'You review code.\n' } });
    expect(attemptSteps(plan)[0]!.persona!.systemPrompt).toBe('You review code.\n');
  });
});
