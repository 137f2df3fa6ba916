import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact.js';
import { formatGithubSummary } from '../../src/report/github/github-summary.js';
import { createSink } from '../../src/report/sink.js';
import { formatSummary } from '../../src/report/summary.js';
import { stepResult } from '../../src/state/record/step-result.js';
import { sampleRecord, sampleStep } from '../state/sample-run.js';
import { CollectingStream } from './scripted-run.js';

const RUN = 'p-20240501-120000-abcd';
const runDir = `/project/.wave/runs/${RUN}`;
const ANSWER = ['The review found two problems.', '', '1. `a.ts` leaks a handle.', '2. b.ts has no test.', 'Details:', '- one', '- two', '- three'].join('\n');

/** A run whose agent step answered ANSWER (cut), and whose command printed JSON with backticks in a field. */
function record() {
  return sampleRecord(RUN, { status: 'completed', durationMs: 2000 }, [
    sampleStep('review', { status: 'completed', durationMs: 1000, result: stepResult('prompt', ANSWER) }),
    sampleStep('report', { status: 'completed', durationMs: 1000, result: stepResult('command', '', { verdict: 'fix ```this```', count: 2 }) }),
    sampleStep('idle', { status: 'completed', durationMs: 1000 }),
  ]);
}

describe('step results in the summaries', () => {
  it("the terminal summary puts an agent's first lines under its step, then the command for the rest", () => {
    const text = formatSummary(record(), runDir, { cwd: '/project' });
    expect(text).toContain(
      [
        '  ✓ review  completed    1.0s',
        '      │ The review found two problems.',
        '      │ 1. `a.ts` leaks a handle.',
        '      │ 2. b.ts has no test.',
        '      │ Details:',
        '      │ - one',
        '      │ - two',
        `      … 1 more line: wave logs ${RUN} --step review`,
        '  ✓ report  completed    1.0s',
        '      │ verdict: fix ```this```',
        '      │ count: 2',
        '  ✓ idle    completed    1.0s',
        '',
      ].join('\n'),
    );
  });

  it('the job summary shows each result in a code block its content cannot close, with the rest named', () => {
    const summary = formatGithubSummary(record(), { redactor: new Redactor([]), runDir });
    const section = summary.slice(summary.indexOf('### Results'), summary.indexOf('### Totals'));
    expect(section).toBe(
      [
        '### Results',
        '',
        '**`review`**',
        '',
        '```',
        'The review found two problems.',
        '1. `a.ts` leaks a handle.',
        '2. b.ts has no test.',
        'Details:',
        '- one',
        '- two',
        '```',
        '',
        `1 more line: \`wave logs ${RUN} --step review\``,
        '',
        '**`report`**',
        '',
        '````',
        'verdict: fix ```this```',
        'count: 2',
        '````',
        '',
        '',
      ].join('\n'),
    );
  });

  it("hides the run's secrets in the printed summary", async () => {
    const secret = 'p4ssw0rd-of-the-day';
    const leaky = sampleRecord(RUN, { status: 'completed' }, [sampleStep('echo', { status: 'completed', result: stepResult('command', `token=${secret}`) })]);
    const out = new CollectingStream();
    (await createSink('text', { out, stepIds: ['echo'], redactor: new Redactor([secret]) })).summarize(leaky, runDir);
    expect(out.text).toContain('│ token=[REDACTED]');
    expect(out.text).not.toContain(secret);
  });
});
