import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/core/errors/exit-codes.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { RunStore } from '../../src/state/run-store.js';
import { basename, join } from 'node:path';

// Rejected runs (Wave's `on_failure: rejected`): a contract says the step found nothing to do; the run stops, rejected, not failed.

/** A child whose assessment says nothing is to be done, which its contract turns into a rejection; `after` would run next. */
const ASSESS = `kind: WavePipeline
metadata: { name: assess }
steps:
  - id: assess
    exec: { type: command, source: "echo '{\\"implementable\\": false}' > assessment.json" }
    output_artifacts: [{ name: assessment, path: assessment.json }]
    handover:
      contract:
        type: json_schema
        schema: { type: object, properties: { implementable: { const: true } }, required: [implementable] }
        on_failure: rejected
  - id: after
    dependencies: [assess]
    exec: { type: command, source: "echo implemented" }
`;

/** A parent that runs the child as its step `fix`; `report` would run after it. */
const PARENT = `kind: WavePipeline
metadata: { name: bugfix }
steps:
  - id: fix
    pipeline: assess
  - id: report
    dependencies: [fix]
    exec: { type: command, source: "echo reported" }
`;

function recordOf(project: string, id: string) {
  return RunStore.open(join(project, '.wave', 'runs'), id).record;
}

describe('a rejected run', () => {
  it('rejects its parent: both end rejected, apart from failed, with their own exit code; resume refuses it unless forced', async () => {
    const project = makeProject({ 'pipelines/assess.yaml': ASSESS, 'pipelines/bugfix.yaml': PARENT });
    const run = await runWave(['run', 'bugfix', '--output', 'text'], { cwd: project });
    expect(EXIT.rejected).toBe(3);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.rejected);
    const records = runDirs(project).map((dir) => recordOf(project, basename(dir)));
    const parent = records.find((r) => r.parentId === undefined)!;
    const child = records.find((r) => r.parentId !== undefined)!;
    expect(child.parentId).toBe(parent.id);
    expect(child.status).toBe('rejected');
    expect(child.steps.assess).toMatchObject({ status: 'rejected', failure: { class: 'contract_failed' } });
    expect(child.steps.after!.status).toBe('pending');
    expect(parent.status).toBe('rejected');
    expect(parent.steps.fix).toMatchObject({ status: 'rejected', children: [{ runId: child.id, status: 'rejected' }] });
    expect(parent.steps.fix!.failure!.message).toContain(`step assess of child run ${child.id}`);
    expect(parent.steps.report!.status).toBe('pending');
    expect(run.stdout).toContain('fix    rejected on attempt 1');
    expect(run.stdout).toContain(`rejected: a step found nothing to do (not a failure); wave resume --force ${parent.id} runs it again`);

    const runs = await runWave(['runs'], { cwd: project });
    expect(runs.stdout).toMatch(new RegExp(`${parent.id} +bugfix +rejected`));
    expect(runs.stdout).toMatch(new RegExp(`${child.id} +assess +rejected`));
    const status = await runWave(['status', parent.id], { cwd: project });
    expect(status.stdout).toMatch(/! fix +rejected/);
    expect(status.stdout).toContain(`run ${parent.id} rejected`);

    const refused = await runWave(['resume', parent.id], { cwd: project });
    expect(refused.code).toBe(EXIT.invalidInput);
    expect(refused.stderr).toContain(`run ${parent.id} was rejected: a step found nothing to do, so there is nothing to finish`);
    expect(refused.stderr).toContain(`wave resume --force ${parent.id}`);
    expect(recordOf(project, parent.id).status).toBe('rejected');

    // Forced, the rejected step runs again (its child too); the same verdict rejects it again.
    const forced = await runWave(['resume', '--force', parent.id], { cwd: project });
    expect(forced.code, forced.stderr).toBe(EXIT.rejected);
    expect(recordOf(project, child.id).steps.assess!.attempts).toHaveLength(2);
  });
});
