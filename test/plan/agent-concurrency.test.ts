import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildClaudeArgs } from '../../src/adapters/claude/invocation.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { concurrencySection } from '../../src/plan/agent-concurrency.js';
import { describePlan } from '../../src/plan/describe-plan.js';
import { makeProject } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
personas:
  auditor: { adapter: claude, system_prompt_file: auditor.md }
  blank: { adapter: claude }
`;

const FILES = { 'auditor.md': 'You audit code.\n' };

/** Wave's hint, word for word (buildConcurrencyHint in internal/adapter/claude.go). */
const HINT = (n: number) => `## Agent Concurrency\n\nYou may spawn up to ${n} concurrent sub-agents or workers for this step.\n`;

async function stepsOf(...steps: string[]) {
  const { plan } = await planProject({ manifest: MANIFEST, pipeline: pipelineOf(...steps), files: FILES });
  return { plan, steps: Object.fromEntries(attemptSteps(plan).map((s) => [s.id, s])) };
}

describe('max_concurrent_agents: the persona is told how many sub-agents it may run, as Wave tells it', () => {
  it('above 1, its system prompt ends with the hint; 0 and 1 (and unset) add nothing', async () => {
    const { steps } = await stepsOf(
      '{ id: three, persona: auditor, max_concurrent_agents: 3, exec: { source: go } }',
      '{ id: one, persona: auditor, max_concurrent_agents: 1, exec: { source: go } }',
      '{ id: zero, persona: auditor, max_concurrent_agents: 0, exec: { source: go } }',
      '{ id: unset, persona: auditor, exec: { source: go } }',
      '{ id: blank, persona: blank, max_concurrent_agents: 10, exec: { source: go } }',
    );
    expect(steps.three!.persona!.systemPrompt).toBe(`You audit code.\n\n${HINT(3)}`);
    for (const id of ['one', 'zero', 'unset']) expect(steps[id]!.persona!.systemPrompt, id).toBe('You audit code.\n');
    expect(steps.blank!.persona!.systemPrompt).toBe(HINT(10));
    expect([steps.three!.maxConcurrentAgents, steps.zero!.maxConcurrentAgents, 'maxConcurrentAgents' in steps.unset!]).toEqual([3, 0, false]);
  });

  it('reaches Claude Code as part of its appended system prompt, and the dry run says it', async () => {
    const { plan, steps } = await stepsOf('{ id: three, persona: auditor, max_concurrent_agents: 3, exec: { source: go } }');
    const step = steps.three!;
    const args = buildClaudeArgs({ adapter: step.adapter, persona: step.persona, prompt: 'go', execType: 'prompt' } as AdapterRunConfig, step.persona!.systemPrompt);
    expect(args[args.indexOf('--append-system-prompt') + 1]).toContain(HINT(3));
    expect(describePlan(plan)).toContain('  agents:    the persona may run up to 3 sub-agents at once (said in its system prompt)');
  });

  it('caps the number it states at 10, as Wave does', () => {
    expect(concurrencySection(25)).toBe(HINT(10));
    expect(concurrencySection(1)).toBeUndefined();
  });

  it('refuses a value past 10 or below 0, a command step and a step without persona, each at the key', async () => {
    const pipeline = pipelineOf(
      '{ id: many, persona: auditor, max_concurrent_agents: 11, exec: { source: go } }',
      '{ id: shell, max_concurrent_agents: 2, exec: { type: command, source: "true" } }',
      '{ id: bare, adapter: claude, max_concurrent_agents: 2, exec: { source: go } }',
      '{ id: negative, persona: auditor, max_concurrent_agents: -1, exec: { source: go } }',
    );
    const dir = makeProject({ 'wave.yaml': MANIFEST, 'pipelines/p.yaml': pipeline, ...FILES });
    const read = await readPipeline(join(dir, 'pipelines/p.yaml'), manifestView(await readManifest(join(dir, 'wave.yaml'), {})), {});
    expect(read.errors.map((e) => [e.code, e.location?.line])).toEqual([
      ['wrong_type', 4],
      ['conflicting_fields', 5],
      ['missing_field', 6],
      ['wrong_type', 7],
    ]);
    expect(read.errors[1]!.message).toBe('step `shell` sets `max_concurrent_agents`, but it is a command step: no agent runs to receive it');
    expect(read.errors[2]!.hint).toBe('Give the step a `persona`, or remove `max_concurrent_agents`.');
  });
});
