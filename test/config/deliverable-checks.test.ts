import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPipeline } from '../../src/config/load/load.js';

const scratch = mkdtempSync(join(tmpdir(), 'wave-deliverables-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;

/** The problems of a pipeline holding `head` before its steps and `publish`'s extra lines (a step with one artifact). */
async function problemsOf(head: string, publishExtra = '') {
  const file = join(scratch, `p${files++}.yaml`);
  const text = `kind: WavePipeline
metadata: { name: ship }
${head}steps:
  - id: publish
    exec: { type: command, source: "true" }
    output_artifacts: [{ name: pr-result, path: out/pr.json }]
${publishExtra}  - id: report
    dependencies: [publish]
    exec: { type: command, source: "true" }
    extract: { schema: { type: object } }
`;
  writeFileSync(file, text);
  const read = await readPipeline(file, { dir: scratch, personas: [], adapters: [] }, {});
  return read.errors.map((e) => ({ code: e.code, message: e.message, hint: e.hint, at: `${e.location?.line}:${e.location?.column}` }));
}

describe('input.type and input.schema.type', () => {
  it("load with a type of Wave's registry, and an unknown type is wrong_type with a did-you-mean", async () => {
    expect(await problemsOf('input: { source: cli, type: issue_ref, schema: { type: string }, example: "acme/app 42" }\n')).toEqual([]);
    const [problem] = await problemsOf('input: { type: isue_ref }\n');
    expect(problem).toMatchObject({ code: 'wrong_type', at: '3:16' });
    expect(problem!.message).toBe('`input.type` is "isue_ref", which is not allowed');
    expect(problem!.hint).toMatch(/^Did you mean `issue_ref`\? Allowed: `string`, `issue_ref`, `pr_ref`/);
  });

  it('input.schema.type names a JSON type', async () => {
    const [problem] = await problemsOf('input: { schema: { type: strng } }\n');
    expect(problem).toMatchObject({ code: 'wrong_type', at: '3:26' });
    expect(problem!.hint).toContain('Did you mean `string`?');
  });

  it('a default or example that does not fit the declared input is wrong_type at it', async () => {
    const problems = await problemsOf('input:\n  type: pr_ref\n  example: "review PR 42 please"\n  default: "acme/app#7"\n');
    expect(problems).toEqual([
      {
        code: 'wrong_type',
        message: 'input.example "review PR 42 please" is not a pr_ref: it is none of the accepted forms',
        hint: expect.stringMatching(/^Write a pull request reference: owner\/repo#N, /) as string,
        at: '5:12',
      },
    ]);
    expect(await problemsOf('input: { schema: { type: integer }, default: "x" }\n')).toEqual([
      expect.objectContaining({ code: 'wrong_type', message: 'input.default "x" is not a JSON integer: it is not JSON' }),
    ]);
  });
});

describe('pipeline_outputs', () => {
  it('name a step and one of its artifacts (an extract step has `extract`), with a field that is a path', async () => {
    const head = `pipeline_outputs:
  pr: { step: publish, artifact: pr-result, field: pr_url, type: pr_ref }
  doc: { step: report, artifact: extract, field: "items[0].url" }
`;
    expect(await problemsOf(head)).toEqual([]);
  });

  it('an unknown step is unknown_dependency at it, with a did-you-mean', async () => {
    expect(await problemsOf('pipeline_outputs:\n  pr: { step: publsh, artifact: pr-result }\n')).toEqual([
      {
        code: 'unknown_dependency',
        message: 'pipeline output `pr` names step `publsh`, which is not a step of this pipeline',
        hint: 'Did you mean `publish`?',
        at: '4:15',
      },
    ]);
  });

  it('an artifact the step does not declare is unknown_artifact at it, listing those it does', async () => {
    expect(await problemsOf('pipeline_outputs:\n  pr: { step: publish, artifact: pr-reslt }\n  doc: { step: report, artifact: notes }\n')).toEqual([
      {
        code: 'unknown_artifact',
        message: 'pipeline output `pr` names artifact `pr-reslt`, which step `publish` does not declare',
        hint: 'Did you mean `pr-result`?',
        at: '4:34',
      },
      {
        code: 'unknown_artifact',
        message: 'pipeline output `doc` names artifact `notes`, which step `report` does not declare',
        hint: 'Artifacts `report` declares: `extract`.',
        at: '5:34',
      },
    ]);
  });

  it('a field that is not a path, or that takes every item, is wrong_type; step and artifact are required; a type is one of the registry', async () => {
    const problems = await problemsOf(`pipeline_outputs:
  a: { step: publish, artifact: pr-result, field: "items[x]" }
  b: { step: publish, artifact: pr-result, field: "items[*].url" }
  c: { artifact: pr-result }
  d: { step: publish, artifact: pr-result, type: pr_reff }
`);
    expect(problems.map((p) => [p.code, p.at, p.message])).toEqual([
      ['wrong_type', '4:51', 'pipeline output `a`: field `items[x]` is not a path: `items[x]` is not a key, key[N] or key[*]'],
      ['wrong_type', '5:51', 'pipeline output `b`: field `items[*].url` takes every item ([*]), but an output is one value'],
      ['missing_field', '6:6', '`step` is required in `pipeline_outputs.c`'],
      ['wrong_type', '7:50', '`pipeline_outputs.d.type` is "pr_reff", which is not allowed'],
    ]);
  });
});

describe('outcomes', () => {
  const outcomes = (lines: string) => `    outcomes:\n${lines}`;

  it("take Wave's types, with a json_path for links and none for files", async () => {
    const ok = outcomes(`      - { type: pr, extract_from: out/pr.json, json_path: .pr_url, label: "Pull Request" }
      - { type: issue, extract_from: out/pr.json, json_path: ".issues[*].url", json_path_label: ".issues[*].title" }
      - { type: file, extract_from: out/pr.json }
`);
    expect(await problemsOf('', ok)).toEqual([]);
  });

  it('a link without json_path is missing_field; a file with one is conflicting_fields; an unknown type is wrong_type', async () => {
    const problems = await problemsOf(
      '',
      outcomes(`      - { type: url, extract_from: out/pr.json }
      - { type: artifact, extract_from: out/pr.json, json_path: .x }
      - { type: link, extract_from: out/pr.json, json_path: .x }
`),
    );
    expect(problems.map((p) => [p.code, p.at, p.message])).toEqual([
      ['missing_field', '8:17', 'step `publish` outcome 1: `json_path` is required for a url outcome'],
      ['conflicting_fields', '9:65', 'step `publish` outcome 2: json_path does nothing for an artifact outcome: its value is the file extract_from names'],
      ['wrong_type', '10:17', '`steps[0].outcomes[2].type` is "link", which is not allowed'],
    ]);
  });

  it('a path that cannot be read, an extract_from leaving the workspace, a label path without [*] are refused at their key', async () => {
    const problems = await problemsOf(
      '',
      outcomes(`      - { type: pr, extract_from: ../secrets.json, json_path: ".a..b" }
      - { type: issue, extract_from: /etc/x.json, json_path: .a, json_path_label: .title }
`),
    );
    expect(problems.map((p) => [p.code, p.at, p.message])).toEqual([
      ['wrong_type', '8:35', "step `publish` outcome 1: extract_from `../secrets.json` leads outside the step's workspace"],
      ['wrong_type', '8:63', 'step `publish` outcome 1: json_path `.a..b` is not a path: `` is not a key, key[N] or key[*]'],
      ['wrong_type', '9:38', "step `publish` outcome 2: extract_from `/etc/x.json` leads outside the step's workspace"],
      ['conflicting_fields', '9:83', 'step `publish` outcome 2: json_path_label names the items of a [*] json_path, and needs a [*] itself'],
    ]);
  });
});
