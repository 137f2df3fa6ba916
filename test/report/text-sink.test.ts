import { beforeAll, describe, expect, it } from 'vitest';
import { createTextSink } from '../../src/report/text.js';
import { CollectingStream, RUN_ID, SCRIPTED_EVENTS, STEP_IDS, scriptedRecord } from './scripted-run.js';

beforeAll(() => {
  process.env.TZ = 'UTC'; // The sink prints local wall-clock times.
});

describe('text sink', () => {
  it('prints one plain timestamped line per meaningful event', () => {
    const out = new CollectingStream();
    const sink = createTextSink({ out, stepIds: STEP_IDS });
    for (const event of SCRIPTED_EVENTS) sink.handle(event);
    sink.close();
    expect(out.text).toBe(
      [
        `12:00:00 run ${RUN_ID} started: hello, 4 steps`,
        '12:00:00 split   started (attempt 1, shell)',
        '12:00:01 split   artifact parts saved: artifacts/split/parts.txt (2.0 KB)',
        '12:00:01 split   completed in 1.2s',
        '12:00:01 count-a started (attempt 1, claude sonnet)',
        '12:00:01 count-b started (attempt 1, shell)',
        '12:00:02 count-a tool Bash wc -w part-1.txt',
        '12:00:02 count-a so far: 1.0k in / 200 out, $0.0050',
        '12:00:03 count-b retrying in 2.0s after attempt 1: non_zero_exit: exit code 1',
        '    wc: part-2.txt: No such file',
        '12:00:05 count-b started (attempt 2, shell)',
        '12:00:06 count-a completed in 4.6s, 12.3k in / 678 out, $0.0123',
        '12:00:06 count-a contract json_schema passed',
        '12:00:07 count-b failed on attempt 2 after 2.0s: non_zero_exit: exit code 2',
        '12:00:07 merge   skipped: dependency count-b failed',
        '12:00:07 run failed in 7.1s, 12.3k in / 678 out, $0.0123',
        '',
      ].join('\n'),
    );
    expect(out.text).not.toContain('\x1b');
  });

  it('prints failed contracts with their errors, fallbacks and cancellations', () => {
    const out = new CollectingStream();
    const sink = createTextSink({ out, stepIds: ['review'] });
    const base = { v: 1, ts: '2024-05-01T08:30:00.000Z', runId: RUN_ID } as const;
    sink.handle({
      ...base,
      type: 'contract_checked',
      stepId: 'review',
      attempt: 1,
      contract: 'json_schema',
      passed: false,
      action: 'retry',
      errors: ['/score: must be number', '/title: required'],
    });
    sink.handle({
      ...base,
      type: 'step_fallback',
      stepId: 'review',
      from: 'claude',
      to: 'opencode',
      failure: { class: 'rate_limited', message: 'HTTP 429', hint: 'wait a minute' },
    });
    sink.handle({ ...base, type: 'step_event', stepId: 'review', attempt: 1, event: { kind: 'error', message: 'overloaded\nretrying' } });
    sink.handle({ ...base, type: 'egress', stepId: 'review', attempt: 1, host: 'api.example.com', port: 443, allowed: true, via: 'connect' });
    sink.handle({ ...base, type: 'egress', stepId: 'review', attempt: 1, host: 'evil.example', port: 443, allowed: false, via: 'connect', reason: 'no entry matches it' });
    sink.handle({ ...base, type: 'step_cancelled', stepId: 'review' });
    sink.handle({ ...base, type: 'run_started', pipeline: 'review', steps: ['review'], resumed: true });
    expect(out.text).toBe(
      [
        '08:30:00 review contract json_schema failed (retry)',
        '    /score: must be number',
        '    /title: required',
        '08:30:00 review falling back from claude to opencode: rate_limited: HTTP 429',
        '    hint: wait a minute',
        '08:30:00 review error: overloaded',
        '08:30:00 review egress denied: evil.example:443 (no entry matches it)',
        '08:30:00 review cancelled',
        `08:30:00 run ${RUN_ID} resumed: review, 1 step`,
        '',
      ].join('\n'),
    );
  });

  it('ends with the summary, without colours', () => {
    const out = new CollectingStream();
    const sink = createTextSink({ out, stepIds: STEP_IDS, cwd: '/project' });
    sink.summarize(scriptedRecord(), `/project/.wave/runs/${RUN_ID}`);
    expect(out.text).toContain(`✗ run ${RUN_ID} failed in 7.1s`);
    expect(out.text).toContain(`resume with: wave resume ${RUN_ID}`);
    expect(out.text).not.toContain('\x1b');
  });

  it('indents every further line of a skip reason or a contract error, so none passes for an event line', () => {
    const out = new CollectingStream();
    const sink = createTextSink({ out, stepIds: ['scan'] });
    const base = { v: SCRIPTED_EVENTS[0]!.v, runId: RUN_ID, ts: '2024-05-01T12:00:07.000Z' };
    const forged = `bad\n12:00:08 run completed in 1.0s`;
    sink.handle({ ...base, type: 'contract_checked', stepId: 'scan', attempt: 1, contract: 'c', passed: false, action: 'warn', errors: [forged] });
    sink.handle({ ...base, type: 'step_skipped', stepId: 'scan', reason: `failed (non_zero_exit: ${forged}); retry.on_failure: skip` });
    sink.close();
    const lines = out.text.trimEnd().split('\n');
    expect(lines.filter((line) => /^\d\d:\d\d:\d\d /.test(line))).toEqual(['12:00:07 scan contract c failed (warn)', '12:00:07 scan skipped: failed (non_zero_exit: bad']);
    expect(lines.filter((line) => line.includes('run completed'))).toEqual(['    12:00:08 run completed in 1.0s', '    12:00:08 run completed in 1.0s); retry.on_failure: skip']);
  });
});
