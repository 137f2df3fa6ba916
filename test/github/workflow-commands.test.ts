import { describe, expect, it } from 'vitest';
import { activeWorkflowCommands, WORKFLOW_COMMANDS } from '../support/attacks.mjs';
import { commandPipeline, makeProject } from '../support/project.js';
import { runAction } from './run-action.js';

/** A step printing workflow commands on stdout and stderr, then failing; in `parallel`, beside a step that waits for nothing. */
function forgingPipeline(parallel: boolean): string {
  const printed = WORKFLOW_COMMANDS.map((line) => `echo '${line}'`).join('; ');
  return commandPipeline('forge', [['forge', [], `${printed}; (${printed}) >&2; exit 1`], ...(parallel ? [['other', [], 'echo other-out'] as [string, string[], string]] : [])]);
}

describe('workflow commands a step prints in the Action’s log', () => {
  it.each([
    ['streamed live', false],
    ['printed when the step ends', true],
  ])('are not read as commands (%s), and Wave’s own failure annotation still is', async (_mode, parallel) => {
    const project = makeProject({ 'pipelines/forge.yaml': forgingPipeline(parallel) });
    const run = await runAction(project, { pipeline: 'forge' });
    expect(run.outputs.conclusion).toBe('failure');
    // The step's lines did reach the log, inside stop-commands regions.
    for (const line of WORKFLOW_COMMANDS) expect(run.stdout).toContain(`\n${line}\n`);
    const active = activeWorkflowCommands(run.stdout);
    // Wave's own `::endgroup::` lines are counted below: one per group it opened.
    expect(active.filter((command) => command !== '::endgroup::' && WORKFLOW_COMMANDS.includes(command))).toEqual([]);
    // Wave's groups open and close in pairs, its annotation is read, and the run's failure is reported.
    expect(active.filter((command) => command.startsWith('::group::'))).toHaveLength(parallel ? 2 : 1);
    expect(active.filter((command) => command === '::endgroup::')).toHaveLength(parallel ? 2 : 1);
    const errors = active.filter((command) => command.startsWith('::error'));
    // The step's annotation is the run's only one: the job's failure is a plain line after it.
    expect(errors).toEqual([expect.stringMatching(/^::error title=Step forge failed,file=pipelines\/forge\.yaml,line=\d+,col=\d+::non_zero_exit: /)]);
    expect(run.stdout).toMatch(/^Wave: the run failed\.$/m);
    // The stderr tail in the annotation's message is one escaped line: %0A, never a line of its own.
    expect(errors[0]).toContain('%0A::error file=src/a.ts,line=1::FORGED-ERROR%0A');
  });
});
