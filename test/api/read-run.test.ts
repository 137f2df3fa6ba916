import { describe, expect, it } from 'vitest';
import { readRun, startRun, WaveError, type RunEvent } from '../../src/api/index.js';
import { commandPipeline, makeProject } from '../support/project.js';

describe('readRun', () => {
  it('reads a run by id or prefix: its record as the run left it, and every recorded event', async () => {
    const project = makeProject({ 'pipelines/one.yaml': commandPipeline('one', [['only', [], 'echo recorded']]) });
    const shown: RunEvent[] = [];
    const result = await startRun({ dir: project, pipeline: 'one', onEvent: (event) => shown.push(event) }).result;
    const read = readRun(project, result.runId.slice(0, -2));
    expect(read.record).toEqual(result.record);
    expect(read.dir).toBe(result.dir);
    expect(read.events[0]).toMatchObject({ type: 'run_created', runId: result.runId, pipeline: 'one' });
    // The file holds what the run showed, after the record of its creation.
    expect(read.events.slice(1)).toEqual(shown);
  });

  it('throws run_not_found with a hint for an unknown run', () => {
    const project = makeProject({});
    let error: unknown;
    try {
      readRun(project, 'absent');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(WaveError);
    expect(error).toMatchObject({ code: 'run_not_found', hint: expect.any(String) });
  });
});
