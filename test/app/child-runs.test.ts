import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childRunsOf } from '../../src/app/child-runs.js';
import { startRun } from '../../src/app/run-sequence.js';
import { resumeRun } from '../../src/app/run-sequence.js';
import { emit, type RunContext } from '../../src/engine/run/context.js';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import { EventBus, type RunEvent } from '../../src/events.js';
import { RunStore } from '../../src/state/run-store.js';
import { plannedRun } from '../support/mock-run.js';
import { commandPipeline, SHELL_MANIFEST } from '../support/project.js';

const CHILD = commandPipeline('child', [
  ['greet', [], 'echo child got {{ input }}'],
  ['after', ['greet'], 'echo done'],
]);
const FAILING = commandPipeline('failing', [['broken', [], 'echo "it broke" >&2; exit 3']]);
const SLOW = commandPipeline('slow', [['wait', [], 'sleep 30']]);
const PARENT = commandPipeline('parent', [['spawn', [], 'true']]);

/** A parent run recorded but not driven, its step `spawn` able to start children of the project's pipelines. */
async function parentRun() {
  const files = { 'pipelines/child.yaml': CHILD, 'pipelines/failing.yaml': FAILING, 'pipelines/slow.yaml': SLOW };
  const { plan, store } = await plannedRun(PARENT, { manifest: SHELL_MANIFEST, files });
  const bus = new EventBus();
  const seen: RunEvent[] = [];
  bus.subscribe((event) => seen.push(event));
  const context: RunContext = { plan, store, bus, registry: new AdapterRegistry(), parentEnv: process.env };
  const err = { write: vi.fn() };
  const base = {
    plan,
    runId: store.record.id,
    bus,
    onFailure: 'halt' as const,
    keepWorkspaces: false,
    autoApprove: false,
    installSkills: false,
    err,
    emit: (body: Parameters<typeof emit>[1]) => emit(context, body),
    depth: 0,
  };
  return { store, seen, err, children: childRunsOf(base, { start: startRun, resume: resumeRun }) };
}

const request = (pipeline: string, signal = new AbortController().signal) => ({ stepId: 'spawn', kind: 'sub_pipeline' as const, pipeline, input: 'the parcel', signal });

afterEach(() => vi.restoreAllMocks());

describe('child runs: a step starts a run of another pipeline through the port app/ gives the engine', () => {
  it('runs the child to its end, linked to the parent step, recorded in both, its events on the parent bus, printing nothing', async () => {
    const { store, seen, children } = await parentRun();
    const printed = vi.spyOn(process.stdout, 'write');
    const outcome = await children.run(request('child'));
    expect(printed).not.toHaveBeenCalled();
    expect(outcome.status).toBe('completed');
    expect(outcome.record).toMatchObject({ parentId: store.record.id, parentStepId: 'spawn', childKind: 'sub_pipeline', pipeline: 'child', input: 'the parcel' });
    expect(readFileSync(join(outcome.dir, 'steps', 'greet', 'output.txt'), 'utf8')).toContain('child got the parcel');
    // The child's own folder, beside the parent's.
    expect(outcome.dir).toBe(join(store.dir, '..', outcome.record.id));
    expect(RunStore.open(join(store.dir, '..'), outcome.record.id).record.status).toBe('completed');
    // The parent's step records it: started and finished, in the journal and the record.
    const journal = store.readEvents().filter((event) => event.type.startsWith('child_run'));
    expect(journal.map((event) => event.type)).toEqual(['child_run_started', 'child_run_finished']);
    expect(journal[0]).toMatchObject({ stepId: 'spawn', childRunId: outcome.record.id, pipeline: 'child' });
    expect(store.record.steps.spawn!.children).toEqual([{ runId: outcome.record.id, pipeline: 'child', status: 'completed' }]);
    expect(new Set(seen.map((event) => event.runId))).toEqual(new Set([store.record.id, outcome.record.id]));
    expect(seen.filter((event) => event.runId === outcome.record.id).map((event) => event.type)).toContain('run_finished');
  });

  it('reports a failed child with the failing step named, in its outcome and the parent step', async () => {
    const { store, children } = await parentRun();
    const outcome = await children.run(request('failing'));
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ class: 'non_zero_exit' });
    expect(outcome.failure!.message).toContain(`step broken of child run ${outcome.record.id}`);
    expect(store.record.steps.spawn!.children![0]).toMatchObject({ status: 'failed', failure: { class: 'non_zero_exit' } });
  });

  it("stops the child when the step's signal aborts, recorded cancelled", async () => {
    const { store, seen, children } = await parentRun();
    const controller = new AbortController();
    const running = children.run(request('slow', controller.signal));
    await vi.waitFor(() => expect(seen.some((event) => event.type === 'attempt_spawned')).toBe(true), { timeout: 10_000 });
    controller.abort({ class: 'aborted', message: 'cancelled' });
    const outcome = await running;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.record.steps.wait!.status).toBe('cancelled');
    expect(store.record.steps.spawn!.children![0]!.status).toBe('cancelled');
  });

  it('throws for a child whose pipeline cannot load, and records no child', async () => {
    const { store, children } = await parentRun();
    await expect(children.run(request('absent'))).rejects.toThrow(/absent/);
    expect(store.readEvents().some((event) => event.type === 'child_run_started')).toBe(false);
    expect(store.record.steps.spawn!.children).toBeUndefined();
  });
});
