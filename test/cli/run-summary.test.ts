import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** Commands whose results are text (short and long), JSON (few and many fields), one long line and nothing. */
const RESULTS = commandPipeline('results', [
  ['count', [], 'echo 42'],
  ['many', [], 'seq 1 20'],
  ['report', [], `printf '{"document": "README.md", "parts": [1, 2], "nested": {"ok": true}}'`],
  ['wide', [], 'printf "{\\"a\\":1,\\"b\\":2,\\"c\\":3,\\"d\\":4,\\"e\\":5,\\"f\\":6,\\"g\\":7,\\"h\\":8}"'],
  ['long', [], "printf 'x%.0s' $(seq 1 500)"],
  ['silent', [], 'true'],
]);

/** The summary lines `wave run` printed under a step's own line, up to the next step. */
function blockOf(stdout: string, stepId: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^ {2}✓ ${stepId} +completed`).test(line));
  expect(start, `no summary line for ${stepId}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('      '));
  return lines.slice(start + 1, end);
}

describe('the run summary shows what each step produced', () => {
  it("a command's last lines, a JSON output's fields, and where the rest is when they are cut", async () => {
    const project = makeProject({ 'pipelines/results.yaml': RESULTS });
    const result = await runWave(['run', 'results', '--output', 'text'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const id = latestRun(project).id;
    const summary = result.stdout.slice(result.stdout.indexOf('\n\n'));

    expect(blockOf(summary, 'count')).toEqual(['      │ 42']);
    // The last 6 of 20 lines, after the command that prints them all.
    expect(blockOf(summary, 'many')).toEqual([`      … 14 earlier lines: wave logs ${id} --step many`, ...[15, 16, 17, 18, 19, 20].map((n) => `      │ ${n}`)]);
    // Top-level fields, strings as they are and the rest as compact JSON.
    expect(blockOf(summary, 'report')).toEqual(['      │ document: README.md', '      │ parts: [1,2]', '      │ nested: {"ok":true}']);
    // The first 6 of 8 fields; the whole output is in the step's output.txt.
    expect(blockOf(summary, 'wide')).toEqual([
      ...['a: 1', 'b: 2', 'c: 3', 'd: 4', 'e: 5', 'f: 6'].map((line) => `      │ ${line}`),
      `      … 2 more fields: .wave/runs/${id}/steps/wide/output.txt`,
    ]);
    // One line of 500 characters is cut to 160.
    expect(blockOf(summary, 'long')).toEqual([`      … the rest: wave logs ${id} --step long`, `      │ ${'x'.repeat(159)}…`]);
    expect(blockOf(summary, 'silent')).toEqual([]);

    // The pointers lead to the whole result.
    expect((await runWave(['logs', id, '--step', 'many'], { cwd: project })).stdout).toBe(Array.from({ length: 20 }, (_, i) => i + 1).join('\n'));
    // `wave status` prints the same summary from run.json.
    const status = await runWave(['status', id], { cwd: project });
    expect(status.stdout).toContain(`      … 14 earlier lines: wave logs ${id} --step many`);
    expect(status.stdout).toContain('      │ nested: {"ok":true}');
  });

  it('`wave status --json` prints the run record: status, times, tokens, each step with its attempts, artifacts and result', async () => {
    const project = makeProject({ 'pipelines/results.yaml': RESULTS });
    expect((await runWave(['run', 'results', '--output', 'quiet'], { cwd: project })).code).toBe(0);
    const { id } = latestRun(project);
    const status = await runWave(['status', id, '--json'], { cwd: project });
    expect(status.code).toBe(0);
    const run = JSON.parse(status.stdout) as Record<string, any>;
    expect(run).toMatchObject({ version: 1, id, pipeline: 'results', status: 'completed', tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    expect(run.durationMs).toEqual(expect.any(Number));
    expect(Date.parse(run.startedAt)).toBeLessThanOrEqual(Date.parse(run.finishedAt));
    expect(Object.keys(run.steps)).toEqual(['count', 'many', 'report', 'wide', 'long', 'silent']);
    expect(run.steps.count).toMatchObject({
      id: 'count',
      status: 'completed',
      durationMs: expect.any(Number),
      attempts: [{ attempt: 1, adapter: 'command', adapterType: 'process', exitCode: 0, durationMs: expect.any(Number) }],
      artifacts: [],
      contracts: [],
      result: { kind: 'output', lines: ['42'], total: 1, cut: false },
    });
    expect(run.steps.wide.result).toMatchObject({ kind: 'fields', total: 8, cut: true });
    expect(run.steps.silent.result).toBeUndefined();
  });

  it('--output quiet still prints only the status line', async () => {
    const project = makeProject({ 'pipelines/results.yaml': RESULTS });
    const result = await runWave(['run', 'results', '--output', 'quiet'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^✓ run results-\S+ completed in \d+\.\ds$/);
  });
});
