import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { encodeSequence, startModelServer } from '../support/model-server.mjs';
import { llmProject, REVIEW_SCHEMA } from './contracts-support.js';
import { makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { replayedEventTypes as eventTypes } from '../support/recording.js';
import { readRun, waveRun as wave, type Run } from '../support/wave-run.js';
import { addPluginCli, pluginManifest } from '../support/plugin-project.js';

// `wave replay`: a recorded run of the plugin CLI served again from its recording, with the CLI gone.

/** Write (with a retry that continues the session), then a command step that reads the written file, then a step that answers from it. */
const pipeline = (writePrompt: string) => `kind: WavePipeline
metadata: { name: p }
steps:
  - id: write
    retry: { max_attempts: 2, base_delay: 100ms, backoff: fixed }
    persona: dev
    exec: { type: prompt, source: "${writePrompt}" }
    output_artifacts: [{ name: out, path: out.txt }]
    handover: { contract: { type: non_empty_file, source: out.txt } }
  - id: check
    dependencies: [write]
    memory: { inject_artifacts: [{ step: write, artifact: out, as: out }] }
    exec: { type: command, source: "cat .wave/artifacts/out" }
  - id: answer
    persona: dev
    dependencies: [check]
    exec: { type: prompt, source: "Answer. {{ steps.check.output }}" }
    output_artifacts: [{ name: answer, source: stdout }]
`;

const RECORDED_PROMPT = 'Write it. WRITE:out.txt FAIL_ONCE:rate_limited';

/** A project with a recorded run of the pipeline, whose CLI is then removed: every agent attempt must come from the recording. */
async function recordedProject(runtime = ''): Promise<{ project: string; recorded: Run }> {
  const project = makeProject({ 'wave.yaml': pluginManifest(runtime), 'pipelines/p.yaml': pipeline(RECORDED_PROMPT) });
  addPluginCli(project);
  const recorded = await wave(project, ['run', 'p']);
  expect(recorded.code, recorded.output).toBe(0);
  // The run's own recording, not one made up here: the write step's first attempt kept the file it wrote.
  const changes = readFileSync(join(recorded.dir, 'steps', 'write', 'attempt-1', 'workspace', 'changes.json'), 'utf8');
  expect(JSON.parse(changes)).toMatchObject({ version: 1, files: [{ path: 'out.txt', change: 'created' }] });
  rmSync(join(project, 'plugin-cli.mjs'));
  return { project, recorded };
}

function artifact(run: Run, stepId: string, name: string): string {
  const path = run.record.steps[stepId]!.artifacts.find((a) => a.name === name)!.path;
  return readFileSync(path.startsWith('/') ? path : join(run.dir, path), 'utf8');
}

describe('wave replay', () => {
  it('replays a recorded run with the CLI removed: the same events, verdicts, artifacts, answers and retry with session continuation', async () => {
    const { project, recorded } = await recordedProject();
    const replayed = await wave(project, ['replay', recorded.record.id]);
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.record.id).not.toBe(recorded.record.id);
    expect(replayed.record.options.replayOf).toBe(recorded.dir);
    expect(eventTypes(replayed)).toEqual(eventTypes(recorded));
    const matched = replayed.events.filter((e) => e.type === 'replay_matched').map((e) => [e.stepId, e.attempt]);
    expect(matched).toEqual([
      ['write', 1],
      ['write', 2],
      ['answer', 1],
    ]);
    // The retry continued the recorded session, and its answer, tokens and cost came from the recorded stream.
    const finished = (run: Run) =>
      run.events.filter((e) => e.type === 'attempt_finished').map((e) => [e.stepId, e.attempt, e.passed, e.failure?.class, e.text, e.tokens, e.costUsd]);
    expect(finished(replayed)).toEqual(finished(recorded));
    const continued = replayed.events.find((e) => e.type === 'session_continued');
    expect(continued).toMatchObject({ stepId: 'write', attempt: 2, sessionId: recorded.record.steps.write!.attempts[0]!.sessionId });
    const verdicts = (run: Run) => run.events.filter((e) => e.type === 'contract_checked').map((e) => [e.stepId, e.passed]);
    expect(verdicts(replayed)).toEqual(verdicts(recorded));
    expect(artifact(replayed, 'write', 'out')).toBe('written by plugin-cli\n');
    expect(artifact(replayed, 'answer', 'answer')).toBe(artifact(recorded, 'answer', 'answer'));
    expect(replayed.record.steps.check!.output).toBe(recorded.record.steps.check!.output);
    const status = await runWave(['status', replayed.record.id], { cwd: project });
    expect(status.stdout).toContain('replayed: 3 attempts');
  });

  it('a changed prompt: strict replay fails replay_mismatch naming the prompt with a diff; live mode runs that step live and replays the rest', async () => {
    const { project, recorded } = await recordedProject();
    writeFileSync(join(project, 'pipelines/p.yaml'), pipeline(`${RECORDED_PROMPT} CHANGED`));
    const strict = await wave(project, ['replay', recorded.record.id]);
    expect(strict.code).toBe(1);
    const failure = strict.record.steps.write!.failure!;
    expect(failure.class).toBe('replay_mismatch');
    expect(failure.message).toContain('differs in its prompt');
    expect(failure.message).toContain(`- ${RECORDED_PROMPT}\n+ ${RECORDED_PROMPT} CHANGED`);
    expect(strict.events.find((e) => e.type === 'replay_mismatch')).toMatchObject({ stepId: 'write', attempt: 1, field: 'prompt', live: false });

    addPluginCli(project);
    const live = await wave(project, ['run', 'p', '--replay', recorded.record.id, '--replay-mode', 'live']);
    expect(live.code, live.output).toBe(0);
    expect(live.events.filter((e) => e.type === 'replay_mismatch').map((e) => [e.stepId, e.attempt, e.field, e.live])).toEqual([
      ['write', 1, 'prompt', true],
      ['write', 2, 'prompt', true],
    ]);
    expect(live.events.filter((e) => e.type === 'replay_matched').map((e) => e.stepId)).toEqual(['answer']);
    expect(live.record.steps.write!.attempts.map((a) => a.replayed ?? false)).toEqual([false, false]);
  });

  it('a recorded stall replayed at --speed 1 trips the stall watchdog; as fast as possible it keeps the recorded outcome', async () => {
    const { project, recorded } = await recordedProject('  stall_timeout: 1s\n');
    // The answer step's recording, rewritten: its last line came 3 s after the others, past the 1 s stall limit.
    const timing = join(recorded.dir, 'steps', 'answer', 'attempt-1', 'output.timing');
    const lines = readFileSync(timing, 'utf8').trim().split('\n');
    writeFileSync(timing, `${lines.map((line, i) => (i === lines.length - 1 ? line.replace(/^\d+/, '3000') : line)).join('\n')}\n`);
    const slow = await wave(project, ['replay', recorded.record.id, '--speed', '1']);
    expect(slow.code).toBe(1);
    expect(slow.record.steps.answer!.failure?.class).toBe('stalled');
    const fast = await wave(project, ['replay', recorded.record.id]);
    expect(fast.code, fast.output).toBe(0);
  });

  it('an attempt recorded before recordings is replay_unrecorded; a file left out is replay_incomplete, named', async () => {
    const project = makeProject({ 'wave.yaml': pluginManifest(), 'pipelines/p.yaml': pipeline(RECORDED_PROMPT) });
    addPluginCli(project);
    const recorded = await wave(project, ['run', 'p']);
    const attemptDir = join(recorded.dir, 'steps', 'write', 'attempt-1');
    // The attempt as a run before recordings left it: no `recording` version.
    const kept = readFileSync(join(attemptDir, 'attempt.json'), 'utf8');
    const { recording: _version, ...older } = JSON.parse(kept) as Record<string, unknown>;
    writeFileSync(join(attemptDir, 'attempt.json'), JSON.stringify(older));
    const unrecorded = await wave(project, ['replay', recorded.record.id]);
    expect(unrecorded.record.steps.write!.failure?.class).toBe('replay_unrecorded');
    writeFileSync(join(attemptDir, 'attempt.json'), kept);
    mkdirSync(join(attemptDir, 'workspace'), { recursive: true });
    writeFileSync(join(attemptDir, 'workspace', 'changes.json'), JSON.stringify({ version: 1, files: [], omitted: [{ path: 'big.bin', reason: 'past max_file_mb (8)' }] }));
    const incomplete = await wave(project, ['replay', recorded.record.id]);
    expect(incomplete.record.steps.write!.failure).toMatchObject({ class: 'replay_incomplete' });
    expect(incomplete.record.steps.write!.failure?.message).toContain('big.bin (past max_file_mb (8))');
  });

  it('refuses --simulate and --dry-run with a replay by name', async () => {
    const project = makeProject({ 'pipelines/p.yaml': 'kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - { id: a, exec: { type: command, source: "true" } }\n' });
    const recorded = await runWave(['run', 'p', '--output', 'quiet'], { cwd: project });
    expect(recorded.code).toBe(0);
    const runId = runDirs(project)[0]!.split('/').at(-1)!;
    for (const flag of ['--simulate', '--dry-run']) {
      const refused = await runWave(['run', 'p', '--replay', runId, flag], { cwd: project });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`a replay cannot be used with ${flag}`);
    }
    expect(statSync(runDirs(project)[0]!).isDirectory()).toBe(true);
  });
});

describe('wave resume of a replay', () => {
  it('a replay stopped by a failing command step resumes as a replay: the agent attempts left come from the recording', async () => {
    const { project, recorded } = await recordedProject();
    // The command step now waits for a file the test creates only after the first try.
    const gate = join(project, 'go');
    const pipelineFile = join(project, 'pipelines', 'p.yaml');
    writeFileSync(pipelineFile, readFileSync(pipelineFile, 'utf8').replace('source: "cat .wave/artifacts/out"', `source: "test -f ${gate} && cat .wave/artifacts/out"`));
    const stopped = await wave(project, ['replay', recorded.record.id]);
    expect(stopped.code, stopped.output).toBe(1);
    expect(stopped.record.steps.check!.failure).toBeDefined();
    expect(stopped.events.filter((e) => e.type === 'replay_matched').map((e) => e.stepId)).toEqual(['write', 'write']);
    writeFileSync(gate, '');
    const resumed = await runWave(['resume', stopped.record.id, '--output', 'json'], { cwd: project, timeout: 120_000 });
    const after = readRun(stopped.dir, resumed.code, resumed.stderr + resumed.stdout);
    expect(after.code, after.output).toBe(0);
    expect(after.record.options.replayOf).toBe(recorded.dir);
    // The write step is not run again; the answer step, never reached before, is served from the recording.
    expect(after.events.filter((e) => e.type === 'replay_matched').map((e) => e.stepId)).toEqual(['write', 'write', 'answer']);
    expect(artifact(after, 'answer', 'answer')).toBe(artifact(recorded, 'answer', 'answer'));
  });
});

describe('wave replay of the model requests a step makes', () => {
  it('serves an extract (both of its requests) and an llm_judge verdict from the recording with the server stopped', async () => {
    const server = await startModelServer();
    const verdict = encodeURIComponent('{"score": 0.9, "reasons": ["names them"]}');
    const extractAnswers = `/s/seq/${encodeSequence(['{"verdict": "fine"}', '{"verdict": "approve", "findings": []}'])}`;
    const requestsPipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: review
    exec: { type: command, source: "echo I would approve, no findings." }
    extract: { schema: ${REVIEW_SCHEMA}, adapter: judge, model: extract-model }
  - id: plan
    dependencies: [review]
    exec: { type: command, source: "echo change a.txt, verdict {{ steps.review.output.verdict }}" }
    handover:
      contract: { type: llm_judge, adapter: model, criteria: [names the files it changes], threshold: 0.8 }
`;
    const project = llmProject(server, { judge: extractAnswers, model: `/s/text/${verdict}` }, requestsPipeline);
    let recorded: Run;
    try {
      recorded = await wave(project, ['run', 'p']);
      expect(recorded.code, recorded.output).toBe(0);
      expect(server.requests.filter((r) => !r.note)).toHaveLength(3);
    } finally {
      await server.close();
    }
    const replayed = await wave(project, ['replay', recorded.record.id]);
    expect(replayed.code, replayed.output).toBe(0);
    const matched = replayed.events.filter((e) => e.type === 'replay_matched').map((e) => [e.stepId, e.purpose]);
    expect(matched).toEqual([
      ['review', 'extract'],
      ['review', 'extract'],
      ['plan', 'judge'],
    ]);
    const extracted = (run: Run) => artifact(run, 'review', 'extract');
    expect(JSON.parse(extracted(replayed))).toEqual({ verdict: 'approve', findings: [] });
    expect(extracted(replayed)).toBe(extracted(recorded));
    const verdicts = (run: Run) => run.events.filter((e) => e.type === 'contract_checked').map((e) => [e.stepId, e.contract, e.passed, e.action]);
    expect(verdicts(replayed)).toEqual(verdicts(recorded));
    expect(eventTypes(replayed)).toEqual(eventTypes(recorded));
  });
});

describe('wave replay of an llm step', () => {
  it('plays its recorded HTTP exchange through the adapter with the server stopped: the same answer, tokens and events', async () => {
    const server = await startModelServer();
    const llmManifest = `kind: WaveManifest
metadata: { name: replay }
adapters:
  model: { type: llm, base_url: "${server.url}/s/text/v1", model: answer-model }
personas:
  critic: { adapter: model }
`;
    const llmPipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - { id: ask, persona: critic, exec: { type: prompt, source: "Say hello." }, output_artifacts: [{ name: answer, source: stdout }] }
`;
    const project = makeProject({ 'wave.yaml': llmManifest, 'pipelines/p.yaml': llmPipeline });
    let recorded: Run;
    try {
      recorded = await wave(project, ['run', 'p']);
    } finally {
      await server.close();
    }
    expect(recorded.code, recorded.output).toBe(0);
    const finished = (run: Run) => run.events.find((e) => e.type === 'attempt_finished')!;
    const answer = finished(recorded).text as string;
    const attemptDir = join(recorded.dir, 'steps', 'ask', 'attempt-1');
    // The run recorded its own exchange: the replay plays that, with the server stopped.
    expect(readFileSync(join(attemptDir, 'http.ndjson'), 'utf8')).toContain('"kind":"chunk"');
    const replayed = await wave(project, ['replay', recorded.record.id]);
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.events.filter((e) => e.type === 'replay_matched').map((e) => e.stepId)).toEqual(['ask']);
    expect(finished(replayed).text).toBe(answer);
    expect(finished(replayed).tokens).toEqual(finished(recorded).tokens);
    expect(artifact(replayed, 'ask', 'answer')).toBe(artifact(recorded, 'ask', 'answer'));
    expect(eventTypes(replayed)).toEqual(eventTypes(recorded));
  });
});

describe('wave replay of child runs', () => {
  it('an iterate fan-out: each item child replays the recorded child of the same item', async () => {
    const parent = `kind: WavePipeline
metadata: { name: fan }
steps:
  - { id: each, iterate: { over: '["alpha", "beta"]', mode: parallel }, pipeline: item, input: "{{ item }}" }
`;
    const child = `kind: WavePipeline
metadata: { name: item }
steps:
  - { id: work, persona: dev, exec: { type: prompt, source: "Handle {{ input }}." } }
`;
    const project = makeProject({ 'wave.yaml': pluginManifest(), 'pipelines/fan.yaml': parent, 'pipelines/item.yaml': child });
    addPluginCli(project);
    const recorded = await wave(project, ['run', 'fan']);
    expect(recorded.code, recorded.output).toBe(0);
    const children = (run: Run) => run.events.filter((e) => e.type === 'child_run_started').map((e) => join(run.dir, '..', e.childRunId as string));
    expect(children(recorded).length).toBeGreaterThan(1);
    rmSync(join(project, 'plugin-cli.mjs'));
    const replayed = await wave(project, ['replay', recorded.record.id]);
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.record.steps.each!.replayed).toBe(2);
    const answers = (run: Run) =>
      children(run)
        .map((dir) => readRun(dir, 0, ''))
        .map((c) => [c.record.options.replayOf !== undefined, c.events.find((e) => e.type === 'attempt_finished')!.text])
        .sort();
    expect(answers(replayed)).toEqual(answers(recorded).map(([, text]) => [true, text]));
  });
});
