import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runWave } from '../support/cli.js';
import { claudeManifest, cliAvailable, oneStepPipeline, param, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

// Each test runs Claude Code once or twice; a loaded machine takes seconds a run.
vi.setConfig({ testTimeout: 240_000 });

const available = cliAvailable('claude');
const MARKER = 'LOGS-MARKER-83';

describe.skipIf(!available)('wave logs and the summary of a real Claude Code run', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it('renders the transcript: the tool call and its target, its result, the answer, the attempt and its tokens; --raw prints the stream', async () => {
    const manifest = claudeManifest({ agent: `${server.url}/s/shell/${param(`echo ${MARKER}`)}` }, '  agent: { adapter: agent }');
    const run = await runAgentPipeline(manifest, oneStepPipeline('agent'));
    expect(run.code, run.stderr).toBe(0);
    const id = run.record.id;

    const logs = await runWave(['logs', id, '--step', 'work'], { cwd: run.project });
    expect(logs.code, logs.stderr).toBe(0);
    const lines = logs.stdout.split('\n');
    expect(lines[0]).toMatch(/^── attempt 1 · agent \(claude-test\) · started \d\d:\d\d:\d\d$/);
    // Claude's own Bash tool call with the command it ran, then what the command printed.
    const call = lines.indexOf(`  tool  Bash echo ${MARKER}`);
    expect(call).toBeGreaterThan(0);
    expect(lines[call + 1]).toBe(`    → ${MARKER}`);
    expect(lines).toContain(`  assistant  The command ran: ${MARKER}`);
    // No cost: the model is served on this machine, and Claude's own estimate is for its list price.
    expect(lines.at(-1)).toMatch(/^── attempt 1 passed in \d+\.\ds · \S+ in \/ \S+ out \(cache \S+\)$/);
    // Each of those came from the run's own events, none from the raw stream.
    expect(logs.stdout).not.toContain('"type"');

    const raw = await runWave(['logs', id, '--step', 'work', '--raw'], { cwd: run.project });
    expect(raw.code).toBe(0);
    const objects = raw.stdout.split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(objects[0]!.type).toBe('system');
    expect(objects.at(-1)!.type).toBe('result');

    // The summary `wave status` prints shows the agent's answer under its step.
    const status = await runWave(['status', id], { cwd: run.project });
    expect(status.stdout).toContain(`      │ The command ran: ${MARKER}`);
  });

  it('shows each attempt with why it failed, and a failed tool call as an error', async () => {
    const manifest = claudeManifest({ agent: `${server.url}/s/shellfail` }, '  agent: { adapter: agent }');
    const pipeline = oneStepPipeline('agent', '    handover:\n      contract: { type: non_empty_file, source: missing.md, on_failure: retry, max_retries: 1 }');
    const run = await runAgentPipeline(manifest, pipeline);
    expect(run.code).toBe(1);
    expect(run.record.steps.work!.attempts).toHaveLength(2);

    const logs = await runWave(['logs', run.record.id, '--step', 'work'], { cwd: run.project });
    expect(logs.code, logs.stderr).toBe(0);
    const lines = logs.stdout.split('\n');
    const heads = lines.filter((line) => line.startsWith('── attempt'));
    expect(heads.map((line) => line.replace(/ · started .*| in .*/, ''))).toEqual([
      '── attempt 1 · agent (claude-test)',
      '── attempt 1 failed',
      '── attempt 2 · agent (claude-test)',
      '── attempt 2 failed',
    ]);
    // The command the model asked for failed: its stderr is the tool's error, under the call.
    const call = lines.findIndex((line) => line.startsWith('  tool  Bash echo oops'));
    expect(lines[call + 1]).toBe('    ✗ Exit code 3');
    expect(lines[call + 2]).toBe('      oops');
    expect(lines).toContain('  contract 1:non_empty_file missing.md failed (retry)');
    expect(lines).toContain('  contract_failed: contract 1:non_empty_file missing.md failed');
    expect(lines).toContain('  ↻ retrying in 0.0s');

    // Only the second attempt.
    const second = await runWave(['logs', run.record.id, '--step', 'work', '--attempt', '2'], { cwd: run.project });
    expect(second.stdout.split('\n').filter((line) => line.startsWith('── attempt'))).toHaveLength(2);
    expect(second.stdout).not.toContain('── attempt 1');
  });
});
