import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { EVENT_VERSION, type RunEvent } from '../../src/events.js';
import { Redactor } from '../../src/redact.js';
import { RunStore, resolveRunId } from '../../src/state/run-store.js';
import { sampleRecord, sampleStep, tempDir } from './sample-run.js';

const ts = '2024-05-01T12:00:00.000Z';

function event(runId: string, fields: Record<string, unknown>): RunEvent {
  return { v: EVENT_VERSION, ts, runId, ...fields } as RunEvent;
}

function catchError(fn: () => unknown): WaveError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WaveError) return error;
    throw error;
  }
  throw new Error('expected a WaveError');
}

describe('RunStore', () => {
  it('creates the run folder with run.json and its run_created event, and snapshots the fold of later events (on flush within a burst)', () => {
    const root = join(tempDir(), '.wave', 'runs');
    const store = RunStore.create(root, sampleRecord('hello-20240501-120000-aaaa', { status: 'pending' }, [sampleStep('a')]));
    expect(store.dir).toBe(join(root, 'hello-20240501-120000-aaaa'));
    expect(JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8')).status).toBe('pending');
    expect(store.readEvents()[0]).toMatchObject({ type: 'run_created', runId: 'hello-20240501-120000-aaaa', steps: [{ id: 'a', optional: false, dependencies: [] }] });
    store.appendEvent(event('hello-20240501-120000-aaaa', { type: 'step_began', stepId: 'a' }));
    // The create wrote a moment ago, so this snapshot waits for the burst window; flush writes it now.
    expect(JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8')).steps.a.status).toBe('pending');
    store.flush();
    expect(JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8')).steps.a.status).toBe('running');
    // The run starting is written at once.
    store.appendEvent(event('hello-20240501-120000-aaaa', { type: 'run_started', pipeline: 'hello', steps: ['a'], resumed: false }));
    const onDisk = JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8'));
    expect(onDisk.status).toBe('running');
    expect(onDisk.steps.a.status).toBe('running');
    expect(store.record.status).toBe('running');
  });

  it('refuses to create a run whose folder exists', () => {
    const root = tempDir();
    RunStore.create(root, sampleRecord('hello-20240501-120000-aaaa'));
    const error = catchError(() => RunStore.create(root, sampleRecord('hello-20240501-120000-aaaa')));
    expect(error.code).toBe('io_error');
  });

  it('appends events and reads them back, skipping torn and foreign lines', () => {
    const store = RunStore.create(tempDir(), sampleRecord('r1'));
    const events = [
      event('r1', { type: 'run_started', pipeline: 'hello', steps: ['a'], resumed: false }),
      event('r1', { type: 'step_started', stepId: 'a', attempt: 1, adapter: 'shell', workspace: '/w/a' }),
      event('r1', { type: 'step_completed', stepId: 'a', attempt: 1, durationMs: 1200, tokens: { ...NO_TOKENS } }),
    ];
    store.appendEvent(events[0]!);
    store.appendEvent(events[1]!);
    appendFileSync(join(store.dir, 'events.ndjson'), 'not json\n{"type":"nonsense"}\n');
    store.appendEvent(events[2]!);
    appendFileSync(join(store.dir, 'events.ndjson'), '{"v":1,"ts":"2024-05-01T12:00:0'); // torn by a kill
    expect(store.readEvents().slice(1)).toEqual(events);
    const lines = readFileSync(join(store.dir, 'events.ndjson'), 'utf8').split('\n');
    expect(JSON.parse(lines[1]!)).toEqual(events[0]);
  });

  it('redacts secrets in events.ndjson and run.json', () => {
    const secret = 'hunter2-very-secret-value';
    const token = `ghp_${'A1b2C3d4'.repeat(5)}`;
    const store = RunStore.create(tempDir(), sampleRecord('r3', { input: `use ${secret}` }, [sampleStep('a')]), new Redactor([secret]));
    store.appendEvent(event('r3', { type: 'step_event', stepId: 'a', attempt: 1, event: { kind: 'text', text: `the key is ${secret} and "${token}"` } }));
    store.appendEvent(event('r3', { type: 'step_skipped', stepId: 'a', reason: `printed ${token}` }));
    // The event lands within the burst window; flush writes it so run.json holds the step's reason.
    expect(store.flush()).toBe(true);
    const events = readFileSync(join(store.dir, 'events.ndjson'), 'utf8');
    const run = readFileSync(join(store.dir, 'run.json'), 'utf8');
    for (const text of [events, run]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(token);
      expect(text).toContain('[REDACTED]');
    }
    expect(store.readEvents()[1]).toMatchObject({ event: { text: 'the key is [REDACTED] and "[REDACTED]"' } });
    expect(JSON.parse(run).input).toBe('use [REDACTED]');
    expect(JSON.parse(run).steps.a.skipReason).toBe('printed [REDACTED]');
    // The live record keeps what the run needs; only what is stored is redacted.
    expect(store.record.input).toBe(`use ${secret}`);
  });

  it('keeps the paths a resume needs even when a secret value is part of them', () => {
    const secret = '/home/builder';
    const record = sampleRecord('r6', { input: `in ${secret}`, pipelineFile: `${secret}/p/hello.yaml`, manifestFile: `${secret}/p/wave.yaml` }, [
      sampleStep('a', { workspace: `${secret}/w/a`, output: `wrote ${secret}/w/a/out` }),
    ]);
    const store = RunStore.create(tempDir(), record, new Redactor([secret]));
    const stored = JSON.parse(readFileSync(join(store.dir, 'run.json'), 'utf8'));
    expect(stored.pipelineFile).toBe(`${secret}/p/hello.yaml`);
    expect(stored.manifestFile).toBe(`${secret}/p/wave.yaml`);
    expect(stored.steps.a.workspace).toBe(`${secret}/w/a`);
    expect(stored.input).toBe('in [REDACTED]');
    expect(stored.steps.a.output).toBe('wrote [REDACTED]/w/a/out');
  });

  it('creates attempt and artifact folders on demand and refuses ids that are not one folder name', () => {
    const store = RunStore.create(tempDir(), sampleRecord('r4'));
    const attempt = store.attemptDir('count-1', 2);
    expect(attempt).toBe(join(store.dir, 'steps', 'count-1', 'attempt-2'));
    expect(statSync(attempt).isDirectory()).toBe(true);
    expect(store.attemptDir('count-1', 2)).toBe(attempt);
    const artifacts = store.artifactsDir('count-1');
    expect(artifacts).toBe(join(store.dir, 'artifacts', 'count-1'));
    expect(statSync(artifacts).isDirectory()).toBe(true);
    expect(catchError(() => store.attemptDir('../escape', 1)).code).toBe('internal');
    expect(catchError(() => store.artifactsDir('a/b')).code).toBe('internal');
    expect(catchError(() => store.attemptDir('a', 0)).code).toBe('internal');
    expect(existsSync(join(store.dir, 'escape'))).toBe(false);
  });

  it('lists runs newest first and skips folders without a readable run.json', () => {
    const root = tempDir();
    RunStore.create(root, sampleRecord('hello-20240501-120000-aaaa', { startedAt: '2024-05-01T12:00:00.000Z' }));
    RunStore.create(root, sampleRecord('review-20240503-080000-bbbb', { pipeline: 'review', startedAt: '2024-05-03T08:00:00.000Z' }));
    RunStore.create(root, sampleRecord('hello-20240502-090000-cccc', { startedAt: '2024-05-02T09:00:00.000Z' }));
    mkdirSync(join(root, 'half-created'));
    mkdirSync(join(root, 'broken'));
    writeFileSync(join(root, 'broken', 'run.json'), '{"version": 1, "id": ');
    mkdirSync(join(root, 'foreign'));
    writeFileSync(join(root, 'foreign', 'run.json'), '{"hello": "world"}');
    expect(RunStore.list(root).map((r) => r.id)).toEqual(['review-20240503-080000-bbbb', 'hello-20240502-090000-cccc', 'hello-20240501-120000-aaaa']);
    expect(RunStore.list(join(root, 'does-not-exist'))).toEqual([]);
  });

  it('opens a run by id or unique prefix; ambiguous and unknown ids are errors', () => {
    const root = tempDir();
    RunStore.create(root, sampleRecord('hello-20240501-120000-aaaa'));
    RunStore.create(root, sampleRecord('hello-20240501-130000-bbbb'));
    expect(RunStore.open(root, 'hello-20240501-120000-aaaa').record.id).toBe('hello-20240501-120000-aaaa');
    expect(RunStore.open(root, 'hello-20240501-13').record.id).toBe('hello-20240501-130000-bbbb');
    const ambiguous = catchError(() => RunStore.open(root, 'hello-2024'));
    expect(ambiguous.code).toBe('invalid_argument');
    expect(ambiguous.message).toContain('hello-20240501-120000-aaaa, hello-20240501-130000-bbbb');
    const missing = catchError(() => RunStore.open(root, 'nope'));
    expect(missing.code).toBe('run_not_found');
    expect(missing.hint).toContain('wave runs');
    expect(catchError(() => resolveRunId(join(root, 'absent'), 'hello')).code).toBe('run_not_found');
    expect(catchError(() => RunStore.open(root, '')).code).toBe('run_not_found');
  });

  it('reopens a run and keeps appending to the same events file', () => {
    const root = tempDir();
    const first = RunStore.create(root, sampleRecord('r5', { status: 'failed' }));
    first.appendEvent(event('r5', { type: 'step_cancelled', stepId: 'a' }));
    first.close();
    const again = RunStore.open(root, 'r5');
    expect(again.record.status).toBe('failed');
    again.appendEvent(event('r5', { type: 'step_cancelled', stepId: 'b' }));
    again.appendEvent(event('r5', { type: 'run_finished', status: 'completed', durationMs: 5, tokens: { ...NO_TOKENS } }));
    expect(again.readEvents()).toHaveLength(4);
    expect(RunStore.open(root, 'r5').record.status).toBe('completed');
  });
});
