import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withArtifactSections } from '../../src/engine/steps/artifact-sections.js';
import type { AttemptStep } from '../../src/plan/plan-types.js';

const WORKSPACE = '/runs/ws/report';

/** An agent step carrying only what the sections read. */
const stepWith = (fields: Pick<AttemptStep, 'injectArtifacts' | 'outputArtifacts'>) => ({ id: 'report', kind: 'agent', ...fields }) as unknown as AttemptStep;

describe("Wave's artifact sections before an agent step's prompt", () => {
  it('names each output artifact path to write, then each injected artifact where it was placed, then the prompt', () => {
    const step = stepWith({
      injectArtifacts: [{ step: 'scan', artifact: 'findings', as: 'scan_findings' }],
      outputArtifacts: [
        { name: 'report', path: '.agents/output/report.md' },
        { name: 'answer', source: 'stdout' },
      ],
    });
    const prompt = withArtifactSections('Write the report.', step, { scan_findings: join(WORKSPACE, '.agents', 'artifacts', 'scan_findings') }, WORKSPACE);
    expect(prompt).toBe(
      [
        '',
        '## Output Artifacts',
        '',
        'Write the requested artifacts to these paths (in workspace root):',
        '',
        '- `.agents/output/report.md` (as: report)',
        '',
        'The pipeline will validate these artifacts. Write to the exact paths above.',
        '',
        '',
        '## Input Artifacts',
        '',
        'Upstream artifacts have been placed in your workspace at these paths:',
        '',
        '- `.agents/artifacts/scan_findings` (from step `scan`, artifact `findings`)',
        '',
        'Read these files at the paths shown. They are guaranteed to exist before this step runs.',
        '',
        'Write the report.',
      ].join('\n'),
    );
  });

  it('names the pipeline an artifact of another pipeline comes from', () => {
    const step = stepWith({ injectArtifacts: [{ pipeline: 'ops-pr-review', artifact: 'verdict', as: 'review_verdict' }], outputArtifacts: [] });
    const prompt = withArtifactSections('Publish it.', step, { review_verdict: join(WORKSPACE, '.agents', 'artifacts', 'review_verdict') }, WORKSPACE);
    expect(prompt).toContain('- `.agents/artifacts/review_verdict` (from pipeline `ops-pr-review`, artifact `verdict`)\n');
  });

  it('leaves a prompt without artifacts, or with an optional injection that was not placed, as it is', () => {
    const step = stepWith({ injectArtifacts: [{ step: 'scan', artifact: 'findings', optional: true }], outputArtifacts: [] });
    expect(withArtifactSections('Just answer.', step, {}, WORKSPACE)).toBe('Just answer.');
  });
});
