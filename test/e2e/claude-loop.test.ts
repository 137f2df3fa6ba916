import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { claudeManifest, cliAvailable, startModelServer, type ModelServer } from './agents.js';
import { recordOf, requestsHolding, runOf, stepArtifact } from './composition.js';

// A loop step whose sub-steps are the real Claude Code and a command, run by `wave run`.

const available = cliAvailable('claude');

/** Claude writes the iteration's number; the command says yes from the third on; `until` reads its output. */
const LOOPED = `kind: WavePipeline
metadata: { name: looped }
steps:
  - id: again
    loop:
      max_iterations: 5
      until: "{{ check.output }}"
      steps:
        - id: write
          output_artifacts: [{ name: note, path: out.txt }]
          persona: copier
          exec: { type: prompt, source: "Write <<round {{ iteration }}>> into out.txt." }
        - id: check
          memory: { inject_artifacts: [{ step: write, artifact: note, as: note }] }
          dependencies: [write]
          exec: { type: command, source: "grep -q 'round [2-9]' {{ artifacts.note }} && echo yes || echo no" }
`;

describe.skipIf(!available)('claude: a loop step with the real Claude Code', { timeout: 180_000 }, () => {
  let server: ModelServer;
  let project: string;
  beforeAll(async () => {
    server = await startModelServer();
    project = makeProject({
      'wave.yaml': claudeManifest({ copier: `${server.url}/s/copy/out.txt` }, '  copier: { adapter: copier }'),
      'pipelines/looped.yaml': LOOPED,
    });
  });
  afterAll(() => server?.close());

  it("runs Claude in each iteration until a command's output on what Claude wrote says so, at the third", async () => {
    const run = await runWave(['run', 'looped', '--output', 'text'], { cwd: project, timeout: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const parent = runOf(project, 'looped');
    const step = parent.steps.again!;
    expect(step).toMatchObject({ status: 'completed', loop: { iteration: 3, of: 5, ended: 'until' } });
    expect(step.children).toHaveLength(3);
    // Each iteration's Claude was asked for its own round, and the loop keeps the last one's note.
    for (const round of [0, 1, 2]) expect(requestsHolding(server.requests, `round ${round}`).length).toBeGreaterThan(0);
    expect(requestsHolding(server.requests, 'round 3')).toEqual([]);
    expect(stepArtifact(project, parent, 'again', 'note')).toBe('round 2');
    const third = recordOf(project, step.children![2]!.runId);
    expect(third).toMatchObject({ childKind: 'loop_iteration', parentId: parent.id, status: 'completed' });
    expect(readFileSync(join(project, '.wave', 'runs', third.id, 'steps', 'check', 'output.txt'), 'utf8').trim()).toBe('yes');
  });
});
