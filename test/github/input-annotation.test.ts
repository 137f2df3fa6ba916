import { describe, expect, it } from 'vitest';
import { commandPipeline, makeProject } from '../support/project.js';
import { lineOf, runAction } from './run-action.js';

const WORKFLOW = `name: ci
on: push
jobs:
  wave:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: owner/wave@v1
        with:
          pipeline: fine
          on-failure: sometimes
`;

/** A project whose checkout holds the workflow that runs the action, as GitHub names it. */
function project(): string {
  return makeProject({ 'pipelines/fine.yaml': commandPipeline('fine', [['fine', [], 'echo fine']]), '.github/workflows/ci.yml': WORKFLOW });
}

const WORKFLOW_ENV = { GITHUB_REPOSITORY: 'owner/app', GITHUB_WORKFLOW_REF: 'owner/app/.github/workflows/ci.yml@refs/heads/main' };

describe('a wrong action input', () => {
  it('is annotated at the line of the workflow file that sets it (GITHUB_WORKFLOW_REF), naming the input', async () => {
    const run = await runAction(project(), { pipeline: 'fine', 'on-failure': 'sometimes' }, WORKFLOW_ENV);
    expect(run.code).toBe(1);
    const errors = run.stdout.match(/^::error[^\n]*$/gm) ?? [];
    expect(errors).toEqual([
      `::error title=Wave%3A invalid_argument,file=.github/workflows/ci.yml,line=${lineOf(WORKFLOW, 'on-failure:')}::input \`on-failure\` is \`sometimes\`, which is not valid%0AHint: Set \`on-failure\` to halt or continue.`,
    ]);
    expect(run.stdout).not.toContain('action.yml');
  });

  it('is annotated without a file when GitHub names no workflow of this repository', async () => {
    const envs: Record<string, string>[] = [{}, { GITHUB_REPOSITORY: 'owner/app', GITHUB_WORKFLOW_REF: 'other/lib/.github/workflows/ci.yml@refs/heads/main' }];
    for (const env of envs) {
      const run = await runAction(project(), { pipeline: 'fine', 'timeout-minutes': 'soon' }, env);
      expect(run.stdout.match(/^::error[^\n]*$/gm)).toEqual([
        '::error title=Wave%3A invalid_argument::input `timeout-minutes` is `soon`, which is not valid%0AHint: Set `timeout-minutes` to a positive number of minutes.',
      ]);
    }
  });

  it('never becomes a workflow command of its own, whatever its value', async () => {
    const run = await runAction(project(), { pipeline: 'fine', 'on-failure': 'x\n::error file=forged.ts::FORGED\n::endgroup::' }, WORKFLOW_ENV);
    expect(run.stdout).not.toMatch(/^::error file=forged/m);
    expect(run.stdout).not.toMatch(/^::endgroup::$/m);
    expect(run.stdout.match(/^::error[^\n]*$/gm)).toHaveLength(1);
  });
});
