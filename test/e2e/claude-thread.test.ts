import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentManifest, cliAvailable, param, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

// Claude's Bash tool runs a login shell that sources $HOME/.bashrc; a scratch HOME keeps the machine's own shell setup
// (on the dev machine, a pyenv rehash that waits a minute on a stale lock) out of the tool calls under test.
const claudeManifest = agentManifest('claude', 'claude-test', `, env: { ANTHROPIC_API_KEY: fake-key, HOME: ${mkdtempSync(join(tmpdir(), 'wave-claude-home-'))} }`);

/** The text a step's final attempt answered, as its attempt_finished event stored it. */
function answerOf(events: Array<Record<string, any>>, stepId: string): string {
  const finished = events.filter((e) => e.type === 'attempt_finished' && e.stepId === stepId);
  expect(finished.length, `attempt_finished of ${stepId}`).toBeGreaterThan(0);
  return finished.at(-1)!.text as string;
}

describe.skipIf(!available)('claude: threads through Claude Code', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("a Claude step's Bash tool runs `wave thread $WAVE_RUN_ID` and reads the earlier rounds", async () => {
    const manifest = claudeManifest({ reader: `${server.url}/s/shell/${param('wave thread $WAVE_RUN_ID --budget 4000')}` }, '  reader: { adapter: reader }');
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: gather
    exec: { type: command, source: "echo GATHERED-FACTS" }
  - id: count
    dependencies: [gather]
    exec: { type: command, source: "echo COUNTED-3" }
  - id: report
    persona: reader
    dependencies: [count]
    exec: { type: prompt, source: "Read what the run did so far." }
`;
    const run = await runAgentPipeline(manifest, pipeline);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    // Claude really ran the command: its Bash tool call is in the stream, and the tool's output came back to the model.
    const toolUse = run.events.find((e) => e.type === 'step_event' && e.stepId === 'report' && e.event.kind === 'tool_use');
    expect(toolUse?.event).toMatchObject({ name: 'Bash', target: 'wave thread $WAVE_RUN_ID --budget 4000' });
    // The scripted model quotes the first 200 characters of the tool's output in its answer.
    const answer = answerOf(run.events, 'report');
    expect(answer).toContain('The command ran: [#1 gather] ');
    const toolResults = server.requests.filter((r) => r.scenario === 'shell' && JSON.stringify(r.body?.messages ?? '').includes('tool_result'));
    expect(toolResults.length).toBeGreaterThan(0);
    const sent = JSON.stringify(toolResults.at(-1)!.body!.messages);
    expect(sent).toContain('[#1 gather]');
    expect(sent).toContain('GATHERED-FACTS');
    expect(sent).toContain('[#2 count]');
    expect(sent).toContain('COUNTED-3');
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'report', 'output.txt'), 'utf8')).toContain('[#1 gather]');
  });

  it("two Claude steps in one thread: the second step's first model request carries THREAD CONTEXT and the first step's answer", async () => {
    const answer = 'ALPHA-ANSWER-7f3: use a cache keyed by path';
    const manifest = claudeManifest(
      { planner: `${server.url}/s/text/${encodeURIComponent(answer)}`, builder: `${server.url}/s/fenced` },
      '  planner: { adapter: planner }\n  builder: { adapter: builder }',
    );
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: plan
    persona: planner
    thread: impl
    exec: { type: prompt, source: "Plan the cache." }
  - id: build
    persona: builder
    dependencies: [plan]
    thread: impl
    exec: { type: prompt, source: "BUILD-TASK: build the cache." }
`;
    const run = await runAgentPipeline(manifest, pipeline);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(answerOf(run.events, 'plan')).toBe(answer);
    const first = server.requests.find((r) => r.scenario === 'fenced' && r.body);
    expect(first).toBeDefined();
    const messages = JSON.stringify(first!.body!.messages);
    expect(messages).toContain('## THREAD CONTEXT');
    expect(messages).toContain(answer);
    expect(messages).toContain('## Step: plan at ');
    // The thread's transcripts come before the step's own task.
    expect(messages.indexOf('## THREAD CONTEXT')).toBeLessThan(messages.indexOf('BUILD-TASK'));
    // The planner received no thread context: it is the thread's first step.
    const planner = server.requests.find((r) => r.scenario === 'text' && JSON.stringify(r.body?.messages ?? '').includes('Plan the cache.'));
    expect(JSON.stringify(planner!.body!.messages)).not.toContain('THREAD CONTEXT');
    const event = run.events.find((e) => e.type === 'thread_context');
    expect(event).toMatchObject({ stepId: 'build', thread: 'impl', fidelity: 'full', steps: ['plan'], omitted: [] });
  });
});
