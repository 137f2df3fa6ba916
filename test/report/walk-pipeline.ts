import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../src/events.js';
import { runWave } from '../support/cli.js';
import { shipOrAbort } from '../support/gate-pipeline.js';
import { runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';
import { HOSTILE_TEXT } from './walk-events.js';

/**
 * A fix loop then a gate, of command steps: test fails on its first run (it counts its runs in the file the input
 * names), the conditional `check` routes back to fix, then on to the gate `approve` (ship, abort or again), then ship.
 */
export const WALK_PIPELINE = `kind: WavePipeline
metadata: { name: walk }
steps:
  - id: fix
    exec: { type: command, source: "echo fixing" }
  - id: test
    type: command
    dependencies: [fix]
    script: ${JSON.stringify('n=$(cat "{{ input }}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "{{ input }}"; echo "run $n"; test $n -ge 2')}
  - id: check
    type: conditional
    dependencies: [test]
    edges:
      - { target: approve, condition: outcome=success }
      - { target: fix }
  - id: approve
    type: gate
    dependencies: [check]
    gate:
${shipOrAbort()}
  - id: ship
    dependencies: [approve]
    exec: { type: command, source: "echo shipped {{ steps.approve.output }}" }
`;

function events(dir: string): RunEvent[] {
  return readFileSync(join(dir, 'events.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);
}

/** Waits until the project's run waits at its gate, then answers it as a person, with HOSTILE_TEXT; returns the run id. */
export async function approveWithHostileText(project: string): Promise<string> {
  const dir = await waitFor(() => runDirs(project).find((d) => events(d).some((e) => e.type === 'gate_waiting')), 'the gate to wait', 60_000);
  const id = dir.split('/').pop()!;
  const approved = await runWave(['approve', id, 'approve', '--choice', 'y', '--text', HOSTILE_TEXT], { cwd: project });
  if (approved.code !== 0) throw new Error(`wave approve failed: ${approved.stderr}`);
  return id;
}
