import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeRun, startRun, WaveError, type RunEvent } from '../../src/api/index.js';
import { commandPipeline, makeProject } from '../support/project.js';

describe('resumeRun', () => {
  it('finishes a failed run without running its completed steps again, giving the events of the resume', async () => {
    const project = makeProject({});
    const fixed = join(project, 'fixed');
    writeFileSync(
      join(project, 'flaky.yaml'),
      commandPipeline('flaky', [
        ['first', [], 'echo one'],
        ['second', ['first'], `test -f '${fixed}' && echo two`],
      ]),
    );
    const failed = await startRun({ dir: project, pipeline: 'flaky.yaml' }).result;
    expect(failed).toMatchObject({ status: 'failed', exitCode: 1 });
    writeFileSync(fixed, '');
    const events: RunEvent[] = [];
    const resumed = await resumeRun({ dir: project, runId: failed.runId, onEvent: (event) => events.push(event) }).result;
    expect(resumed).toMatchObject({ status: 'completed', exitCode: 0, runId: failed.runId });
    expect(events.flatMap((event) => (event.type === 'step_output' ? [event.stepId] : []))).toEqual(['second']);
    expect(events.find((event) => event.type === 'run_started')).toMatchObject({ resumed: true });
  });

  it('rejects with run_not_found for a run the project does not have', async () => {
    const project = makeProject({});
    const error = await resumeRun({ dir: project, runId: 'nothing-here' }).result.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WaveError);
    expect(error).toMatchObject({ code: 'run_not_found' });
  });
});
