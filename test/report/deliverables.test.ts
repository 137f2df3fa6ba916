import { describe, expect, it } from 'vitest';
import { deliverablesMarkdown } from '../../src/report/deliverables.js';
import { describeEvent } from '../../src/report/text.js';
import { formatSummary } from '../../src/report/summary.js';
import { sampleRecord, sampleStep } from '../state/sample-run.js';

const record = sampleRecord(
  'ship-20240501-120000-abcd',
  {
    outputs: {
      notes: { step: 'make', artifact: 'notes', type: 'string', path: 'artifacts/make/notes.md', value: 'line one\n  line two\n' },
      report: { step: 'make', artifact: 'report', field: 'summary', type: 'findings_report', path: 'artifacts/make/report.json' },
    },
    outputWarnings: ['output `report`: its value is 70 KiB, more than 64 KiB: it is left out of run.json, read it from artifacts/make/report.json'],
  },
  [
    sampleStep('make', {
      status: 'completed',
      outcomes: [
        { type: 'deployment', label: 'Preview', value: 'https://preview.example', source: 'out/deploy.json', jsonPath: '.url' },
        { type: 'file', label: 'Report', value: '/project/.wave/runs/r/artifacts/make/report.json', source: 'report.json' },
      ],
      outcomeWarnings: ['outcome 3 (url): cannot read out/c.json: the step did not write it'],
    }),
  ],
);

describe('outcomes and outputs in reports', () => {
  it('the summary lists outcomes under their step and an outputs block, values on one line, paths from the working folder', () => {
    const text = formatSummary(record, '/project/.wave/runs/r', { cwd: '/project' });
    expect(text).toContain(
      [
        '      ↗ Preview: https://preview.example',
        '      ↗ Report: .wave/runs/r/artifacts/make/report.json',
        '      warning: outcome 3 (url): cannot read out/c.json: the step did not write it',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '  outputs:',
        '    notes (make/notes) = line one line two',
        '    report (make/report.summary, findings_report) → .wave/runs/r/artifacts/make/report.json',
        `    warning: ${record.outputWarnings![0]}`,
        '',
        '✓ run ship-20240501-120000-abcd completed',
      ].join('\n'),
    );
  });

  it('the text sink prints each event as it comes, the job summary as a list', () => {
    const base = { v: 1, ts: '2024-05-01T12:00:00.000Z', runId: 'r' } as const;
    const steps = record.steps.make!;
    expect(describeEvent({ ...base, type: 'step_outcomes', stepId: 'make', outcomes: steps.outcomes!, warnings: steps.outcomeWarnings! }, (id) => id)).toBe(
      'make outcomes:\n    Preview: https://preview.example\n    Report: /project/.wave/runs/r/artifacts/make/report.json\n    warning: outcome 3 (url): cannot read out/c.json: the step did not write it',
    );
    expect(describeEvent({ ...base, type: 'run_outputs', outputs: record.outputs!, warnings: [] }, (id) => id)).toBe(
      'outputs:\n    notes (make/notes) = line one line two\n    report (make/report.summary, findings_report) → artifacts/make/report.json',
    );
    expect(deliverablesMarkdown(record)).toBe(
      [
        '### Outcomes and outputs',
        '',
        '- `make` Preview: https://preview.example',
        '- `make` Report: `/project/.wave/runs/r/artifacts/make/report.json`',
        '- `make` warning: outcome 3 (url): cannot read out/c.json: the step did not write it',
        '- output `notes`: `line one line two`',
        '- output `report`: `artifacts/make/report.json`',
        `- warning: ${record.outputWarnings![0]}`,
      ].join('\n'),
    );
    expect(deliverablesMarkdown(sampleRecord('empty'))).toBe('');
  });
});
