import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestEvents, latestRun } from '../support/runs.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: parts }
pipeline_outputs:
  verdict: { step: judge, artifact: verdict, field: verdict }
steps:
  - id: judge
    exec: { type: command, source: "printf '{\\"verdict\\":\\"ship it\\"}' > v.json" }
    output_artifacts: [{ name: verdict, path: v.json }]
    outcomes: [{ type: url, extract_from: v.json, json_path: .link }]
`;

describe('wave assemble and named outputs', () => {
  it('resolves the outputs from the artifacts the parts brought, as `wave run` does when its run ends', async () => {
    const dir = makeProject({ 'pipelines/parts.yaml': PIPELINE });
    const id = 'parts-20990101-000000-abcd';
    const job = await runWave(['run', 'parts', '--run-id', id, '--output', 'quiet'], { cwd: dir });
    expect(job.code, job.stderr).toBe(0);
    // The assembling job starts from the parts and artifacts alone, as a compiled workflow's last job does.
    const runDir = join(dir, '.wave', 'runs', id);
    for (const file of ['run.json', 'events.ndjson']) rmSync(join(runDir, file));
    const assembled = await runWave(['assemble', 'parts', '--run-id', id], { cwd: dir });
    expect(assembled.code, assembled.stderr).toBe(0);
    expect(assembled.stdout).toContain('  outputs:\n    verdict (judge/verdict.verdict) = ship it\n');
    const record = latestRun(dir);
    expect(record.outputs).toEqual({ verdict: { step: 'judge', artifact: 'verdict', field: 'verdict', type: 'string', path: 'artifacts/judge/verdict.json', value: 'ship it' } });
    expect(record.steps.judge!.outcomeWarnings).toEqual(['outcome 1 (url): .link in v.json: key "link" not found']);
    const events = latestEvents(dir);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['run_outputs', 'run_finished']);
    expect(events.some((e) => e.type === 'step_outcomes')).toBe(true);
  });
});
