import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchemas } from '../../src/event-schema.js';
import type { RunEvent } from '../../src/events.js';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

const { RunEventSchema } = eventSchemas();

/** What the publish step writes: a PR link, two created issues, nothing at comment_url. */
const RESULT = {
  pr_url: 'https://github.com/acme/app/pull/7',
  issues: [
    { url: 'https://github.com/acme/app/issues/1', title: 'one' },
    { url: 'https://github.com/acme/app/issues/2', title: 'two' },
  ],
};

/** A pipeline taking an issue reference, publishing RESULT with outcomes, and naming outputs (one of them unreadable). */
const SHIP = `kind: WavePipeline
metadata: { name: ship }
input:
  source: cli
  type: issue_ref
  example: "acme/app 42"
  schema: { type: string, description: "The issue to fix" }
pipeline_outputs:
  pr: { step: publish, artifact: pr-result, field: pr_url, type: pr_ref }
  result: { step: publish, artifact: pr-result }
  comment: { step: publish, artifact: pr-result, field: comment_url }
  review: { step: review, artifact: notes }
steps:
  - id: publish
    exec:
      type: command
      source: mkdir -p out && printf '%s' '${JSON.stringify(RESULT)}' > out/pr.json && echo "publishing for" {{ input }}
    output_artifacts: [{ name: pr-result, path: out/pr.json, type: json }]
    outcomes:
      - { type: pr, extract_from: out/pr.json, json_path: .pr_url, label: "Pull Request" }
      - { type: issue, extract_from: out/pr.json, json_path: ".issues[*].url", json_path_label: ".issues[*].title", label: Issue }
      - { type: url, extract_from: out/pr.json, json_path: .comment_url, label: Comment }
      - { type: file, extract_from: out/pr.json, label: Result }
  - id: review
    dependencies: [publish]
    exec: { type: command, source: "exit 3" }
    output_artifacts: [{ name: notes, path: notes.md }]
`;

function jsonEvents(stdout: string): RunEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => RunEventSchema.parse(JSON.parse(line)));
}

describe('what a pipeline takes and gives back, through the CLI', () => {
  it('records outcomes and named outputs in run.json and events, and shows them in the summary and `wave status`', async () => {
    const dir = makeProject({ 'pipelines/ship.yaml': SHIP });
    const result = await runWave(['run', 'ship', '--input', 'acme/app#42', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(1); // review fails: the run fails, its outputs are still resolved
    const events = jsonEvents(result.stdout);
    const record = latestRun(dir);
    const { id } = record;
    const stored = join(dir, '.wave', 'runs', id, 'artifacts', 'publish', 'pr-result.json');

    const outcomes = [
      { type: 'pr', label: 'Pull Request', value: RESULT.pr_url, source: 'out/pr.json', jsonPath: '.pr_url' },
      { type: 'issue', label: 'Issue: one', value: RESULT.issues[0]!.url, source: 'out/pr.json', jsonPath: '.issues[*].url' },
      { type: 'issue', label: 'Issue: two', value: RESULT.issues[1]!.url, source: 'out/pr.json', jsonPath: '.issues[*].url' },
      // A file that is one of the step's artifacts is its stored copy, which outlives the workspace.
      { type: 'file', label: 'Result', value: stored, source: 'out/pr.json' },
    ];
    const outcomeWarnings = ['outcome 3 (Comment): .comment_url in out/pr.json: key "comment_url" not found'];
    expect(record.steps.publish!.outcomes).toEqual(outcomes);
    expect(record.steps.publish!.outcomeWarnings).toEqual(outcomeWarnings);
    expect(events.find((e) => e.type === 'step_outcomes')).toMatchObject({ stepId: 'publish', outcomes, warnings: outcomeWarnings });

    const outputs = {
      pr: { step: 'publish', artifact: 'pr-result', field: 'pr_url', type: 'pr_ref', path: 'artifacts/publish/pr-result.json', value: RESULT.pr_url },
      result: { step: 'publish', artifact: 'pr-result', type: 'string', path: 'artifacts/publish/pr-result.json', value: JSON.stringify(RESULT) },
    };
    const outputWarnings = [
      'output `comment`: field `comment_url` of artifact `pr-result`: key "comment_url" not found',
      'output `review`: step `review` failed, so its artifact `notes` was not saved',
    ];
    expect(record.outputs).toEqual(outputs);
    expect(record.outputWarnings).toEqual(outputWarnings);
    const types = events.map((e) => e.type);
    // Resolved before the run counts as finished.
    expect(types.indexOf('run_outputs')).toBe(types.indexOf('run_finished') - 1);
    expect(events.find((e) => e.type === 'run_outputs')).toMatchObject({ outputs, warnings: outputWarnings });

    const status = await runWave(['status', id], { cwd: dir });
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `      ↗ Pull Request: ${RESULT.pr_url}`,
        `      ↗ Issue: one: ${RESULT.issues[0]!.url}`,
        `      ↗ Issue: two: ${RESULT.issues[1]!.url}`,
        `      ↗ Result: .wave/runs/${id}/artifacts/publish/pr-result.json`,
        `      warning: ${outcomeWarnings[0]}`,
        '  outputs:',
        `    pr (publish/pr-result.pr_url, pr_ref) = ${RESULT.pr_url}`,
        `    warning: ${outputWarnings[0]}`,
        `    warning: ${outputWarnings[1]}`,
      ]),
    );
    expect(lines.find((l) => l.startsWith('    result (publish/pr-result) = {"pr_url"'))).toMatch(/…$/);
    const json = await runWave(['status', id, '--json'], { cwd: dir });
    expect((JSON.parse(json.stdout) as RunRecord).outputs).toEqual(outputs);
  });

  it('prints outcomes and outputs as the text output goes, and in the final summary', async () => {
    const dir = makeProject({ 'pipelines/ship.yaml': SHIP });
    const result = await runWave(['run', 'ship', '--input', 'https://github.com/acme/app/issues/42', '--output', 'text', '--steps', 'publish'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ publish outcomes:\n {4}Pull Request: https:\/\/github\.com\/acme\/app\/pull\/7\n/);
    expect(result.stdout).toMatch(/ outputs:\n {4}pr \(publish\/pr-result\.pr_url, pr_ref\) = https:\/\/github\.com\/acme\/app\/pull\/7\n/);
    // Not selected, so never run: its output is absent and the summary says why.
    expect(result.stdout).toContain('\n  outputs:\n');
    expect(result.stdout).toContain('    warning: output `review`: step `review` did not run, so its artifact `notes` was not saved\n');
  });

  it('takes what it can of the outcomes and says why the others could not be taken; the step still succeeds', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: edges }
steps:
  - id: make
    exec:
      type: command
      source: >-
        printf '{"urls":["https://x/1","https://x/2"],"none":[]}' > list.json && printf 'not json' > prose.txt &&
        ln -s /etc/hostname escape.json && echo report > report.md
    outcomes:
      - { type: url, extract_from: list.json, json_path: ".urls[*]", label: Link }
      - { type: url, extract_from: list.json, json_path: ".none[*].url" }
      - { type: url, extract_from: list.json, json_path: ".none[0].url" }
      - { type: url, extract_from: prose.txt, json_path: .url }
      - { type: url, extract_from: escape.json, json_path: .url }
      - { type: deployment, extract_from: absent.json, json_path: .url }
      - { type: file, extract_from: report.md }
`;
    const dir = makeProject({ 'pipelines/edges.yaml': pipeline });
    const result = await runWave(['run', 'edges', '--keep-workspaces', '--output', 'quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const record = latestRun(dir);
    const step = record.steps.make!;
    expect(step.status).toBe('completed');
    expect(step.outcomes).toEqual([
      { type: 'url', label: 'Link (1/2)', value: 'https://x/1', source: 'list.json', jsonPath: '.urls[*]' },
      { type: 'url', label: 'Link (2/2)', value: 'https://x/2', source: 'list.json', jsonPath: '.urls[*]' },
      // Not one of the step's artifacts: the file in the workspace (kept here by --keep-workspaces).
      { type: 'file', label: 'file', value: join(step.workspace!, 'report.md'), source: 'report.md' },
    ]);
    expect(step.outcomeWarnings).toEqual([
      'outcome 2 (url): the list at .none[*].url in list.json is empty: nothing taken',
      'outcome 3 (url): no items in none of list.json: nothing taken at .none[0].url',
      expect.stringMatching(/^outcome 4 \(url\): prose\.txt is not JSON \(/) as string,
      "outcome 5 (url): escape.json leads outside the step's workspace",
      'outcome 6 (deployment): cannot read absent.json: the step did not write it',
    ]);
  });

  it('refuses an input that does not fit input.type before any step runs: input_invalid at the key, the example in the hint', async () => {
    const dir = makeProject({ 'pipelines/ship.yaml': SHIP });
    const result = await runWave(['run', 'ship', '--input', 'please fix the login bug'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `${join(dir, 'pipelines/ship.yaml')}:5:9: input_invalid: the input "please fix the login bug" is not an issue_ref: it is none of the accepted forms\n` +
        "  hint: Give an issue reference: owner/repo#N, owner/repo N, an issue URL, #N or N, or an issue_ref JSON object (forge, owner, repo, number), e.g. `acme/app 42` (the pipeline's input.example).", // runWave drops the final newline
    );
    expect(existsSync(join(dir, '.wave', 'runs'))).toBe(false);
    const none = await runWave(['run', 'ship', '--dry-run'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('input_invalid: pipeline `ship` takes an issue_ref input, and none was given');
  });

  it('input.schema.type holds a run input to that JSON type', async () => {
    const pipeline =
      'kind: WavePipeline\nmetadata: { name: count }\ninput: { schema: { type: integer }, default: "3" }\nsteps:\n  - id: a\n    exec: { type: command, source: "echo {{ input }}" }\n';
    const dir = makeProject({ 'pipelines/count.yaml': pipeline });
    expect((await runWave(['run', 'count', '--output', 'quiet'], { cwd: dir })).code).toBe(0);
    const refused = await runWave(['run', 'count', '--input', '3.5'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      ':3:26: input_invalid: the input "3.5" is not a JSON integer: it is a number with a fraction\n  hint: Give JSON of type integer, e.g. `3` (the pipeline\'s input.default).',
    );
  });

  it('shows the input (type and shape, description, example, default) in --dry-run and `wave run <pipeline> --help`', async () => {
    const dir = makeProject({ 'pipelines/ship.yaml': SHIP });
    const inputLines = [
      '  type:        issue_ref (an issue reference: owner/repo#N, owner/repo N, an issue URL, #N or N, or an issue_ref JSON object (forge, owner, repo, number))',
      '  description: The issue to fix',
      '  example:     acme/app 42',
      '  default:     (none)',
    ];
    const dry = await runWave(['run', 'ship', '--input', '#42', '--dry-run'], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(['Input: #42', ...inputLines, ''].join('\n'));
    expect(dry.stdout).toContain('Outputs (taken when the run ends):\n  pr ← publish/pr-result field pr_url (pr_ref)\n  result ← publish/pr-result (string)\n');
    expect(dry.stdout).toContain('  outcome:   pr "Pull Request" ← out/pr.json at .pr_url\n');
    const help = await runWave(['run', 'ship', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(['Usage: wave run [options] <pipeline>', ''].join('\n'));
    expect(help.stdout.endsWith(['', 'Input of ship:', ...inputLines].join('\n'))).toBe(true);
    const unknown = await runWave(['run', 'nope', '--help'], { cwd: dir });
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toMatch(/\nThe input of nope cannot be shown: no pipeline `nope`/);
  });
});
