import { describe, expect, it } from 'vitest';
import { AdapterRegistry } from '../../src/adapters/registry.js';
import { EventBus } from '../../src/events.js';
import { executeRun } from '../../src/engine/run/run-pipeline.js';
import { plannedRun } from '../support/mock-run.js';
import { MockRunner, type MockScriptFor } from '../support/mock-runner.js';

/** Runs a pipeline in-process on a mock runner standing in for claude; returns the final record. */
async function execute(pipeline: string, scriptFor: MockScriptFor) {
  const { plan, store } = await plannedRun(pipeline, { files: { 'src/app.txt': 'app\n' } });
  const registry = new AdapterRegistry().register(Object.assign(new MockRunner(scriptFor), { type: 'claude' as const }));
  const status = await executeRun({ plan, store, bus: new EventBus(), registry, parentEnv: process.env }, { onFailure: 'halt', signal: new AbortController().signal });
  return { status, record: store.record };
}

describe('a step failure keeps the class of its WaveError', () => {
  it('records a changed readonly mount as mount_modified and does not retry it', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: guard
    persona: agent
    retry: { max_attempts: 3, base_delay: 1ms }
    workspace: { mount: [{ source: ./src, target: code, mode: readonly }] }
    exec: { source: "read the code" }
`;
    const { status, record } = await execute(pipeline, () => ({ writeFiles: { 'code/app.txt': 'changed\n' } }));
    expect(status).toBe('failed');
    expect(record.steps.guard!.failure).toMatchObject({ class: 'mount_modified', message: expect.stringContaining('`app.txt` was modified') });
    expect(record.steps.guard!.attempts).toHaveLength(1);
  });

  it('records a template reading a field the output lacks as template_invalid, with its hint', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: a, persona: agent, exec: { source: "answer" } }
  - { id: b, persona: agent, dependencies: [a], exec: { source: "use {{ steps.a.output.missing }}" } }
`;
    const { status, record } = await execute(pipeline, (config) => ({ result: { text: config.stepId === 'a' ? '{"found": 1}' : 'done' } }));
    expect(status).toBe('failed');
    expect(record.steps.b!.failure).toEqual({
      class: 'template_invalid',
      message: '`steps.a.output.missing`: the output of `a` has no field `missing`',
      hint: 'Name a field its output has (it begins "{\\"found\\": 1}").',
    });
  });
});
