import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/project.js';
import { runAction } from './run-action.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: ship }
input: { type: pr_ref, example: "acme/app#7" }
pipeline_outputs:
  pr: { step: publish, artifact: pr-result, field: pr_url, type: pr_ref }
  title: { step: publish, artifact: title }
  missing: { step: publish, artifact: pr-result, field: nope }
steps:
  - id: publish
    exec:
      type: command
      source: printf '{"pr_url":"https://github.com/acme/app/pull/7"}' > pr.json && printf 'Fix the login' > title.txt
    output_artifacts: [{ name: pr-result, path: pr.json }, { name: title, path: title.txt }]
    outcomes:
      - { type: pr, extract_from: pr.json, json_path: .pr_url, label: "Pull Request" }
`;

describe('the GitHub Action and named outputs', () => {
  it('sets `outputs` to the pipeline_outputs that have a value, and lists outcomes, outputs and warnings in the job summary', async () => {
    const project = makeProject({ 'pipelines/ship.yaml': PIPELINE });
    const run = await runAction(project, { pipeline: 'ship', input: 'acme/app#7' });
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.outputs.outputs!)).toEqual({ pr: 'https://github.com/acme/app/pull/7', title: 'Fix the login' });
    expect(run.summary).toContain('### Outcomes and outputs');
    expect(run.summary).toContain('- `publish` Pull Request: https://github.com/acme/app/pull/7');
    expect(run.summary).toContain('- output `pr`: `https://github.com/acme/app/pull/7`');
    expect(run.summary).toContain('- warning: output `missing`: field `nope` of artifact `pr-result`: key "nope" not found');
  });

  it('refuses an input that does not fit input.type, as an error annotation at the key', async () => {
    const project = makeProject({ 'pipelines/ship.yaml': PIPELINE });
    const run = await runAction(project, { pipeline: 'ship', input: 'the login fix' });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    expect(run.stdout).toMatch(/^::error title=Wave%3A input_invalid,file=pipelines\/ship\.yaml,line=3,col=16::the input "the login fix" is not a pr_ref/m);
    expect(run.stdout).toContain('e.g. `acme/app#7`');
  });

  it('says `rejected` when a step found nothing to do, with a notice, and does not fail the job step', async () => {
    const contract = '{ type: json_schema, source: a.json, schema: { type: object, required: [implementable] }, on_failure: rejected }';
    const rejecting = `kind: WavePipeline\nmetadata: { name: assess }\nsteps:\n  - { id: assess, script: "echo '{}' > a.json", handover: { contract: ${contract} } }\n`;
    const run = await runAction(makeProject({ 'pipelines/assess.yaml': rejecting }), { pipeline: 'assess' });
    expect(run.outputs.conclusion).toBe('rejected');
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('::notice title=Wave%3A rejected::A step found nothing to do, so the run ended rejected');
    expect(run.stdout).toMatch(/::warning title=Step assess rejected%3A nothing to do/);
  });
});
