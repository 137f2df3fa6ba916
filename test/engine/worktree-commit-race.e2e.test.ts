import { describe, expect, it } from 'vitest';
import { makeRepository } from '../fixtures/workspace/helpers.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { latestRun } from '../support/runs.js';

// Steps that commit on their worktrees finish while other steps' worktrees are still being added: taking a step's
// commits into the repository reads every ref, and a worktree being added has a HEAD that names no commit yet.

const STEPS = 16;
const COMMIT = 'echo x > f.txt && git add -A && git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m work';

describe('worktree steps that commit, many at once', () => {
  it('take every branch back into the repository while other worktrees are added', async () => {
    const steps = Array.from(
      { length: STEPS },
      (_, i) => `  - id: s${i}\n    workspace: { type: worktree, branch: b${i} }\n    exec: { type: command, source: ${JSON.stringify(COMMIT)} }\n`,
    );
    const project = makeProject({
      'wave.yaml': SHELL_MANIFEST.replace('max_concurrency: 4', `max_concurrency: ${STEPS}`),
      '.gitignore': '.wave/\n',
      'pipelines/p.yaml': `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.join('')}`,
    });
    await makeRepository(project);
    for (let round = 0; round < 3; round++) {
      const run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
      const failures = Object.entries(latestRun(project).steps).flatMap(([id, step]) => (step.status === 'completed' ? [] : [`${id}: ${step.failure?.message}`]));
      expect(failures).toEqual([]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
    }
  }, 180_000);
});
