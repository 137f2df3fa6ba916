import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { manifestWith, oneStepPipeline, runAgentPipeline } from './agents.js';

// cursor-agent is not on npm and talks only to Cursor's backend, so these runs use a stand-in that replays
// cursor-agent's documented stream-json: they prove Wave's side (argv, parsing, failures), not the real binary.
const STAND_IN = fileURLToPath(new URL('../fixtures/cursor-agent/cursor-agent', import.meta.url));

/** A manifest whose adapter `cursor` (its type follows from the name) runs the stand-in in `scenario`, logging to `log`. */
function cursorManifest(scenario: string, log: string, binary = STAND_IN): string {
  return manifestWith(
    [
      `  cursor: { binary: "${binary}", model: gpt-5, api_key_env: MY_CURSOR_KEY, env: { MY_CURSOR_KEY: key-1, CURSOR_STANDIN_SCENARIO: ${scenario}, CURSOR_STANDIN_LOG: "${log}" } }`,
    ],
    '  dev: { adapter: cursor }',
  );
}

const RETRY = '    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }\n';
const OUTPUT = '    output_artifacts: [{ name: notes, path: notes.txt }]\n';

describe('cursor: runs through wave against a stand-in replaying the documented format', () => {
  it('stand-in: a step runs cursor-agent headless: its tool calls, tokens and written file reach the run', async () => {
    const log = join(makeProject({}), 'cursor.ndjson');
    const run = await runAgentPipeline(cursorManifest('success', log), oneStepPipeline('dev', OUTPUT));
    expect(run.code, run.stderr).toBe(0);
    const argv = (JSON.parse(readFileSync(log, 'utf8').trim()) as { argv: string[] }).argv;
    expect(argv.slice(0, -1)).toEqual(['-p', '--output-format', 'stream-json', '--force', '--trust', '--model', 'gpt-5']);
    // The prompt, after Wave's section saying where the step's artifact goes.
    expect(argv.at(-1)).toMatch(/^\n## Output Artifacts\n[\s\S]*- `notes\.txt` \(as: notes\)[\s\S]*\n\nDo the task\.$/);
    const tools = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_use').map((e) => [e.event.name, e.event.target]);
    expect(tools).toEqual([
      ['write', 'notes.txt'],
      ['shell', 'test -f missing.txt'],
    ]);
    expect(run.record.steps.work!.tokens).toMatchObject({ input: 1200, output: 85, cacheRead: 300 });
    expect(run.record.steps.work!.artifacts.map((a) => a.name)).toEqual(['notes']);
  });

  it('stand-in: credentials refused (stderr, exit 1, no result): auth_failed, not retried, with the login hint', async () => {
    const log = join(makeProject({}), 'cursor.ndjson');
    const run = await runAgentPipeline(cursorManifest('auth', log), oneStepPipeline('dev', RETRY));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure).toMatchObject({ class: 'auth_failed' });
    expect(run.record.steps.work!.failure?.hint).toContain('cursor-agent login');
    expect(run.record.steps.work!.attempts).toHaveLength(1);
  });

  it('stand-in: a binary that is not installed: spawn_failed saying how to install cursor-agent', async () => {
    const log = join(makeProject({}), 'cursor.ndjson');
    const run = await runAgentPipeline(cursorManifest('success', log, 'cursor-agent-not-installed'), oneStepPipeline('dev'));
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.failure?.class).toBe('spawn_failed');
    expect(run.record.steps.work!.failure?.hint).toContain('curl https://cursor.com/install -fsS | bash');
  });

  it('stand-in: doctor finds cursor-agent by its own name and reports its version and key', async () => {
    const project = makeProject({ 'wave.yaml': manifestWith(['  cursor: { api_key_env: MY_CURSOR_KEY, env: { MY_CURSOR_KEY: key-1 } }'], '  dev: { adapter: cursor }') });
    const result = await runWave(['doctor', '--json'], { cwd: project, env: { PATH: `${dirname(STAND_IN)}:${process.env.PATH ?? ''}` } });
    const check = (JSON.parse(result.stdout) as { adapters: Array<Record<string, any>> }).adapters[0]!;
    expect(check).toMatchObject({
      adapter: 'cursor',
      type: 'cursor',
      binary: 'cursor-agent',
      path: STAND_IN,
      version: '2026.01.28-standin',
      usable: true,
      access: { mode: 'api_key', detail: 'MY_CURSOR_KEY' },
    });
  });

  it('validate refuses a base_url on a cursor adapter, at its line', async () => {
    const project = makeProject({ 'wave.yaml': manifestWith(['  cursor: { base_url: "http://127.0.0.1:9" }'], '  dev: { adapter: cursor }') });
    const result = await runWave(['validate'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^wave\.yaml:4:\d+: manifest_invalid: adapter `cursor` runs cursor-agent, which cannot use a base_url$/m);
  });
});
