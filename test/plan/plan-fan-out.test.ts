import { describe, expect, it } from 'vitest';
import { PipelineSchema } from '../../src/config/schema/pipeline-schema.js';
import { fanOutProblems, planFanOut } from '../../src/plan/plan-fan-out.js';
import { templateReferences } from '../../src/plan/templates.js';

const PIPELINE = PipelineSchema.parse({
  kind: 'WavePipeline',
  metadata: { name: 'p' },
  skills: ['helper'],
  requires: { tools: ['git'] },
  steps: [
    { id: 'plan', persona: 'shell', exec: { source: 'plan' } },
    {
      id: 'execute',
      persona: 'shell',
      dependencies: ['plan'],
      strategy: { type: 'matrix', items_source: 'plan/tasks', item_key: 'tasks', max_concurrency: 2 },
      memory: { inject_artifacts: [{ step: 'plan', artifact: 'notes', as: 'notes.md' }] },
      exec: { type: 'prompt', source_path: 'prompts/task.md' },
    },
    { id: 'many', persona: 'shell', concurrency: 3, thread: 't', exec: { source: 'go {{ steps.plan.output }}' } },
  ],
});
const [, matrix, many] = PIPELINE.steps;

describe('planFanOut', () => {
  it("makes a matrix step's worker: the step alone, its template written in with {{ task }} as the input, earlier artifacts from the parent", () => {
    const fanOut = planFanOut(matrix!, 'Do {{ task }} now', PIPELINE)!;
    expect(fanOut.items).toEqual({ source: 'plan/tasks', key: 'tasks' });
    expect(fanOut.maxConcurrent).toBe(2);
    expect(fanOut.worker).toEqual({
      kind: 'WavePipeline',
      metadata: { name: 'p.execute' },
      skills: ['helper'],
      requires: { tools: ['git'] },
      steps: [
        {
          id: 'execute',
          persona: 'shell',
          memory: { inject_artifacts: [{ pipeline: 'p', artifact: 'notes', as: 'notes.md' }] },
          exec: { type: 'prompt', source: 'Do {{ input }} now' },
        },
      ],
    });
  });

  it('runs N identical workers for concurrency, and nothing fans out without either key', () => {
    expect(planFanOut(many!, 'go', PIPELINE)!.items).toEqual({ count: 3 });
    expect(planFanOut(PIPELINE.steps[0]!, 'plan', PIPELINE)).toBeUndefined();
  });

  it('refuses what a worker, a run of the step alone, cannot have: earlier outputs, a thread, and {{ input }} beside a matrix item', () => {
    const locate = (path: readonly PropertyKey[]) => ({ file: 'p.yaml', line: path.length, column: 1 });
    const manyProblems = fanOutProblems(many!, templateReferences('go {{ steps.plan.output }}'), locate).map((e) => e.message);
    expect(manyProblems).toEqual([
      'step `many` runs as workers (`concurrency`), which cannot read `{{ steps.<id>.output }}`',
      'step `many` runs as workers (`concurrency`), which cannot join the thread `t`',
    ]);
    expect(fanOutProblems(matrix!, templateReferences('{{ input }} and {{ task }}'), locate).map((e) => e.code)).toEqual(['template_invalid']);
  });
});
