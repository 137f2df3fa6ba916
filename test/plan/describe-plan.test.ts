import { describe, expect, it } from 'vitest';
import { describePlan } from '../../src/plan/describe-plan.js';
import { planProject } from './plan-project.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
project: { language: go }
adapters:
  claude: { binary: claude, model: sonnet }
  codex: { binary: codex }
personas:
  dev: { adapter: claude, fallbacks: [codex] }
`;

const PIPELINE = `kind: WavePipeline
metadata: { name: review }
steps:
  - id: gen
    exec: { type: command, source: "go vet ./... > vet.txt" }
    output_artifacts: [{ name: vet, path: vet.txt }, { name: log, source: stdout }]
    retry: { max_attempts: 2 }
  - id: review
    persona: dev
    dependencies: [gen]
    timeout_minutes: 5
    optional: true
    memory: { inject_artifacts: [{ step: gen, artifact: vet, as: vet.md }, { step: gen, artifact: log, optional: true }] }
    handover: { contract: { type: non_empty_file, source: notes.md, on_failure: retry } }
    exec:
      source: |
        Review {{ input }} ({{ project.language }}) in run {{ run.id }} of {{ pipeline.name }}, step {{ step.id }}.
        Read {{ artifacts.vet.md }} and {{ steps.gen.output }}.
`;

describe('describePlan', () => {
  it("prints the order, each step's adapter, limits, artifacts and contracts, and its prompt with placeholders", async () => {
    const { plan } = await planProject({ manifest: MANIFEST, pipeline: PIPELINE }, { input: 'the vet report' });
    expect(describePlan(plan)).toBe(`Pipeline review (${plan.pipelineFile})
Input: the vet report

Order (steps in one group run in parallel):
  1. gen
  2. review

Step gen
  runs on:   shell command
  timeout:   30 min; attempts: 2
  produces:  vet ← vet.txt
  produces:  log ← stdout
  command:
    │ go vet ./... > vet.txt

Step review
  runs on:   claude (claude), model sonnet
  persona:   dev
  after:     gen
  timeout:   5 min; attempts: 1; optional
  fallbacks: codex
  injects:   gen/vet as vet.md
  injects:   gen/log as log (optional)
  contract:  non_empty_file (on failure: retry)
  prompt:
    │ Review the vet report (go) in run <run-id> of review, step review.
    │ Read <workspace>/.wave/artifacts/vet.md and <steps.gen.output>.
    │ 
    │ ## Requirements your output is checked against
    │ - The file \`notes.md\` must exist and must not be empty.
`);
  });

  it('says when there is no input', async () => {
    const { plan } = await planProject({ manifest: MANIFEST, pipeline: PIPELINE });
    expect(describePlan(plan).split('\n')[1]).toBe('Input: (none)');
  });
});
