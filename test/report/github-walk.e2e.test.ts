import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/project.js';
import { startAction } from '../github/run-action.js';
import { approveWithHostileText, WALK_PIPELINE } from './walk-pipeline.js';

describe('the GitHub Action’s job summary of a routed, gated run', () => {
  it('tells the gate’s decision with the person’s text inert, the routes with their visits, and the steps that ran again', async () => {
    const project = makeProject({ 'pipelines/walk.yaml': WALK_PIPELINE });
    const action = startAction(project, { pipeline: 'walk', input: join(project, 'count') });
    await approveWithHostileText(project);
    const run = await action.finished;
    expect(run.code, run.stdout).toBe(0);
    const section = run.summary.slice(run.summary.indexOf('### Gates and routes'), run.summary.indexOf('### Timeline'));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.slice(0, 5)).toEqual([
      '| `fix` | ` visited 2× ` |',
      '| `test` | ` visited 2× ` |',
      '| `check` | ` → fix, outcome failure, visit 2; again: fix, test, check ` |',
      '| `check` | ` → approve (outcome=success), outcome success, visit 1 ` |',
      '| `check` | ` visited 2× ` |',
    ]);
    // The person's text: one line of it, inside inline code, its pipe escaped for the table and its escape shown as text.
    expect(rows[5]).toMatch(
      /^\| `approve` \| `` gate `approve` resolved by a person y "Ship" → ship: LGTM <script>alert\(1\)<\/script> \\\| ::error::pwned \\x1b\[2J `x` …, at \d{4}-\d\d-\d\dT[\d:.]+Z `` \|$/,
    );
    expect(rows[6]).toBe('| `approve` | ` → ship, outcome success, visit 1 ` |');
    expect(run.summary).not.toContain('\u001b');
    expect(run.summary).not.toContain('second line');
    expect(run.summary).not.toMatch(/^::error::/m);
  });
});
