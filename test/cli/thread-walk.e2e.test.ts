import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave, startWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { HOSTILE_TEXT } from '../report/walk-events.js';
import { approveWithHostileText, WALK_PIPELINE } from '../report/walk-pipeline.js';

describe('`wave thread` of a routed, gated run', () => {
  it('shows the routes and the gate’s decision as rounds among the attempts; the person’s text is inert, exact in --json', async () => {
    const project = makeProject({ 'pipelines/walk.yaml': WALK_PIPELINE });
    const run = startWave(['run', 'walk', '--input', join(project, 'count'), '--output', 'text'], { cwd: project });
    const id = await approveWithHostileText(project);
    const done = await run;
    expect(done.exitCode, String(done.stdout)).toBe(0);

    const thread = await runWave(['thread', id], { cwd: project });
    expect(thread.code, thread.stderr).toBe(0);
    const headers = thread.stdout.split('\n').flatMap((line) => /^\[#(\d+) (\S+)\]/.exec(line)?.slice(1, 3).join(' ') ?? []);
    expect(headers).toEqual(['1 fix', '2 test', '3 check', '4 fix', '5 test', '6 check', '7 approve', '8 ship']);
    expect(thread.stdout).toContain('\nrouted from check → fix, outcome failure, visit 2; again: fix, test, check\n');
    expect(thread.stdout).toContain('\nrouted from check → approve (outcome=success), outcome success, visit 1\n');
    expect(thread.stdout).toMatch(
      /\ngate `approve` resolved by a person y "Ship" → ship: LGTM <script>alert\(1\)<\/script> \| ::error::pwned \\x1b\[2J `x` …, at \d{4}-\d\d-\d\dT[\d:.]+Z\n/,
    );
    expect(thread.stdout).toContain('\n> LGTM <script>alert(1)</script> | ::error::pwned \\x1b[2J `x`\n> ::error::second line\n');
    // Inert: no escape reaches the terminal, and no line of the text starts a line (a runner's workflow command, a round's header).
    expect(thread.stdout).not.toContain('\u001b');
    expect(thread.stdout).not.toMatch(/^::error::/m);
    expect(
      thread.stdout
        .split('\n')
        .filter((line) => line.includes('<script>'))
        .every((line) => line.startsWith('> ') || line.startsWith('gate `approve`')),
    ).toBe(true);

    const page = JSON.parse((await runWave(['thread', id, '--json'], { cwd: project })).stdout) as { rounds: Array<Record<string, unknown>> };
    expect(page.rounds[6]).toMatchObject({
      round: 7,
      step: 'approve',
      kind: 'gate',
      status: 'resolved',
      resolved_by: 'person',
      choice: { key: 'y', label: 'Ship', target: 'ship' },
      body: HOSTILE_TEXT,
      cut: false,
    });
    expect(page.rounds[2]).toMatchObject({ step: 'check', kind: 'route', routed: { to: 'fix', outcome: 'failure', visit: 2, again: ['fix', 'test', 'check'] } });
    expect(page.rounds[1]).toMatchObject({ step: 'test', status: 'failed' });
  });
});
