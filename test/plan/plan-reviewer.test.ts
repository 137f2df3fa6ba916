import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { describePlan } from '../../src/plan/describe-plan.js';
import { planAdapters } from '../../src/plan/plan-adapters.js';
import { DEFAULT_REVIEW_TIMEOUT_MS } from '../../src/plan/plan-reviewer.js';
import { attemptSteps } from '../support/attempt-steps.js';
import { makeProject } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';

const MANIFEST = [
  'kind: WaveManifest',
  'metadata: { name: review }',
  'adapters: { claude: { binary: claude, model: sonnet }, critic: { type: llm, base_url: "http://127.0.0.1:1/v1", model: small } }',
  'personas: { dev: { adapter: claude }, reviewer: { adapter: critic, model: strict-model, system_prompt_file: reviewer.md } }',
  '',
].join('\n');
const FILES = { 'reviewer.md': 'You review code.', 'criteria/review.md': 'Every function has a test.' };

const reviewStep = (contract: string) => pipelineOf(`{ id: a, persona: dev, exec: { source: hi }, handover: { contract: { type: agent_review, ${contract} } } }`);

describe('an agent_review contract in the plan', () => {
  it("resolves the reviewer persona and its adapter, reads the criteria from the project root, and takes the persona's model and the default timeout", async () => {
    const { plan } = await planProject({ manifest: MANIFEST, pipeline: reviewStep('persona: reviewer, criteria_path: criteria/review.md'), files: FILES });
    const [contract] = attemptSteps(plan)[0]!.contracts;
    expect(contract!.reviewer).toMatchObject({
      persona: { name: 'reviewer', systemPrompt: 'You review code.' },
      adapter: { name: 'critic', type: 'llm' },
      model: 'strict-model',
      criteria: 'Every function has a test.',
      timeoutMs: DEFAULT_REVIEW_TIMEOUT_MS,
    });
    // Its adapter is one the run may call: its keys are passed and redacted like the step's own.
    expect(planAdapters(plan).map((a) => a.name)).toEqual(['claude', 'critic']);
    // --dry-run names the reviewer and its criteria.
    expect(describePlan(plan)).toContain('contract:  agent_review by reviewer against criteria/review.md (on failure: fail)');
    // The step's agent is told a review follows.
    expect(attemptSteps(plan)[0]!.template).toContain('A separate reviewer (persona `reviewer`) will review your work against the criteria in `criteria/review.md`');
  });

  it("takes the contract's model and timeout over the persona's", async () => {
    const { plan } = await planProject({
      manifest: MANIFEST,
      pipeline: reviewStep('persona: reviewer, criteria_path: criteria/review.md, model: cheapest, timeout: 90s'),
      files: FILES,
    });
    expect(attemptSteps(plan)[0]!.contracts[0]!.reviewer).toMatchObject({ model: 'cheapest', timeoutMs: 90_000 });
  });
});

describe('agent_review checks when the pipeline is read', () => {
  /** The problems of one step's contracts, as [code, line, column, message]. */
  async function problemsOf(contracts: string) {
    const dir = makeProject({
      ...FILES,
      'wave.yaml': MANIFEST,
      'pipelines/p.yaml': pipelineOf(`{ id: a, persona: dev, exec: { source: hi }, handover: { contracts: [${contracts}] } }`),
    });
    const view = manifestView(await readManifest(join(dir, 'wave.yaml'), {}));
    const read = await readPipeline(join(dir, 'pipelines/p.yaml'), view, {});
    return read.errors.map((e) => [e.code, e.location?.line, e.location?.column, e.message, e.hint]);
  }

  it("refuses the step's own persona as reviewer, and a persona the manifest does not declare", async () => {
    const problems = await problemsOf(
      '{ type: agent_review, persona: dev, criteria_path: criteria/review.md }, { type: agent_review, persona: reviewr, criteria_path: criteria/review.md }',
    );
    expect(problems).toEqual([
      [
        'wrong_type',
        4,
        105,
        'step `a` contract 1 (agent_review) has persona `dev` review its own work',
        'Name another persona as the reviewer, so the work is seen by a second pair of eyes.',
      ],
      ['unknown_persona', 4, 178, 'step `a` contract 2 (agent_review) names reviewer persona `reviewr`, which the manifest does not declare', 'Did you mean `reviewer`?'],
    ]);
  });

  it("takes criteria listed inline, as Wave's own pipelines write them, after those of its file", async () => {
    const both = await planProject({
      manifest: MANIFEST,
      pipeline: reviewStep('persona: reviewer, criteria_path: criteria/review.md, criteria: [Names say what they are., No dead code.]'),
      files: FILES,
    });
    expect(attemptSteps(both.plan)[0]!.contracts[0]!.reviewer!.criteria).toBe('Every function has a test.\n\n- Names say what they are.\n- No dead code.');
    const inline = await planProject({ manifest: MANIFEST, pipeline: reviewStep('persona: reviewer, criteria: [No dead code.]'), files: FILES });
    expect(attemptSteps(inline.plan)[0]!.contracts[0]!.reviewer!.criteria).toBe('- No dead code.');
    expect(attemptSteps(inline.plan)[0]!.template).toContain('against these criteria:\n  - No dead code.');
    expect(describePlan(inline.plan)).toContain('agent_review by reviewer against 1 criteria listed');
  });

  it('needs a persona and a criteria_path that exists inside the project', async () => {
    const problems = await problemsOf(
      '{ type: agent_review }, { type: agent_review, persona: reviewer, criteria_path: ../outside.md }, { type: agent_review, persona: reviewer, criteria_path: nothing.md }',
    );
    expect(problems.map((p) => [p[0], p[3]])).toEqual([
      ['missing_field', 'step `a` contract 1 (agent_review) names no reviewer `persona`'],
      ['missing_field', 'step `a` contract 1 (agent_review) needs `criteria_path` or `criteria`'],
      ['wrong_type', 'step `a` contract 2 (agent_review) reads criteria_path `../outside.md`, which is outside the project'],
      ['file_not_found', expect.stringContaining('step `a` contract 3 (agent_review) names criteria_path `nothing.md`, which does not exist')],
    ]);
  });

  it('refuses a review key on a contract of another type, so it is never silently ignored', async () => {
    const problems = await problemsOf('{ type: non_empty_file, persona: reviewer, token_budget: 10 }');
    expect(problems.map((p) => [p[0], p[3]])).toEqual([
      ['wrong_type', 'step `a` contract 1 (non_empty_file) sets `persona`, which only an agent_review contract reads'],
      ['wrong_type', 'step `a` contract 1 (non_empty_file) sets `token_budget`, which only an agent_review contract reads'],
    ]);
  });

  it('refuses a test_diff or test_count_baseline key on a contract of another type', async () => {
    const problems = await problemsOf('{ type: test_diff, base_ref: main }, { type: non_empty_file, max_test_deletions: 1 }, { type: test_count_baseline, base_ref: main }');
    expect(problems.map((p) => [p[0], p[3], p[4]])).toEqual([
      [
        'wrong_type',
        'step `a` contract 1 (test_diff) sets `base_ref`, which only a test_count_baseline contract reads',
        'Remove it, or set `type: test_count_baseline` if the contract counts test declarations.',
      ],
      [
        'wrong_type',
        'step `a` contract 2 (non_empty_file) sets `max_test_deletions`, which only a test_diff or test_count_baseline contract reads',
        'Remove it, or set `type: test_diff` if the contract counts test declarations.',
      ],
    ]);
  });
});
