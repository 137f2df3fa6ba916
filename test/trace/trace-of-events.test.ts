import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { traceOfEvents, type TraceOptions } from '../../src/trace/trace-of-events.js';
import { attemptSpanId, parseTraceparent, runSpanId, traceIdOfRun } from '../../src/trace/trace-ids.js';
import { traceSettingsOf } from '../../src/trace/gen-ai-attributes.js';
import type { TraceSpan } from '../../src/trace/trace-span.js';
import { EVERY_EVENT } from '../state/event-samples.js';
import { at, RUN, sampleRun, tokens } from './sample-trace-run.js';

const OFF: TraceOptions = { captureContent: false, latestSemconvOnly: true };

const named = (spans: TraceSpan[], name: string) => spans.filter((span) => span.name === name);
const only = (spans: TraceSpan[], name: string) => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe('traceOfEvents', () => {
  it('makes one trace: the workflow span, steps under it, attempts under their step, tools under their attempt', () => {
    const spans = traceOfEvents(sampleRun(), OFF);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceIdOfRun(RUN)]));
    const run = only(spans, 'invoke_workflow review');
    expect(run.spanId).toBe(runSpanId(RUN, 1));
    expect(run.parentSpanId).toBeUndefined();
    expect(run.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'review', 'wave.run_id': RUN, 'wave.run.status': 'completed' });
    const plan = only(spans, 'step plan');
    expect(plan.parentSpanId).toBe(run.spanId);
    const attempts = named(spans, 'invoke_agent navigator');
    expect(attempts.map((span) => span.parentSpanId)).toEqual([plan.spanId, plan.spanId]);
    expect(attempts.map((span) => span.spanId)).toEqual([attemptSpanId(RUN, 'plan', 1), attemptSpanId(RUN, 'plan', 2)]);
    const tool = only(spans, 'execute_tool Bash');
    expect(tool.parentSpanId).toBe(attempts[0]!.spanId);
    expect(tool.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'Bash', 'gen_ai.tool.call.id': 'toolu_1' });
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
  });

  it('gives an attempt its usage, session, models, cost and failure class; the retry wait is an event of the step', () => {
    const spans = traceOfEvents(sampleRun(), OFF);
    const [failed, passed] = named(spans, 'invoke_agent navigator');
    expect(failed!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.response.model': 'claude-sonnet-4-5-20250929',
      'gen_ai.conversation.id': 'sess-1',
      'gen_ai.agent.name': 'navigator',
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 340,
      'gen_ai.usage.cache_read.input_tokens': 50,
      'gen_ai.usage.cache_creation.input_tokens': 7,
      'wave.cost_usd': 0.01,
      'wave.attempt': 1,
      'error.type': 'contract_failed',
    });
    expect(failed!.status).toEqual({ code: 'error', message: 'no plan.json' });
    expect(failed!.events.map((event) => event.name)).toEqual(['wave.egress.denied']);
    expect(passed!.attributes['error.type']).toBeUndefined();
    expect(passed!.attributes['wave.attempt']).toBe(2);
    const plan = only(spans, 'step plan');
    expect(plan.events.map((event) => [event.name, event.attributes['error.type'] ?? event.attributes['wave.contract.passed']])).toEqual([
      ['wave.contract', false],
      ['wave.retry', 'contract_failed'],
    ]);
    expect(plan.events[1]!.attributes['wave.retry.delay_ms']).toBe(2000);
  });

  it('hangs a child run under the step that started it, in the same trace', () => {
    const spans = traceOfEvents(sampleRun(), OFF);
    const child = only(spans, 'invoke_workflow child');
    expect(child.traceId).toBe(traceIdOfRun(RUN));
    expect(child.parentSpanId).toBe(only(spans, 'step fan').spanId);
    expect(child.attributes).toMatchObject({ 'wave.parent_run_id': RUN, 'wave.parent_step_id': 'fan' });
    const build = only(spans, 'attempt build');
    expect(build.parentSpanId).toBe(only(spans, 'step build').spanId);
    expect(build.attributes['gen_ai.operation.name']).toBeUndefined();
  });

  it('keeps tool arguments, results and the final answer only when content capture is on', () => {
    const withContent = traceOfEvents(sampleRun(), { ...OFF, captureContent: true });
    expect(only(withContent, 'execute_tool Bash').attributes).toMatchObject({ 'gen_ai.tool.call.arguments': 'cat notes.txt', 'gen_ai.tool.call.result': 'notes' });
    expect(named(withContent, 'invoke_agent navigator')[0]!.attributes['gen_ai.output.messages']).toContain('secret answer');
    const text = JSON.stringify(traceOfEvents(sampleRun(), OFF));
    for (const content of ['cat notes.txt', '"notes"', 'secret answer']) expect(text).not.toContain(content);
  });

  it('hangs the run under a TRACEPARENT given from outside', () => {
    const parent = parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')!;
    const spans = traceOfEvents(sampleRun(), { ...OFF, parent });
    const run = only(spans, 'invoke_workflow review');
    expect(run.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(run.parentSpanId).toBe('b7ad6b7169203331');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(parseTraceparent('00-00000000000000000000000000000000-b7ad6b7169203331-01')).toBeUndefined();
    expect(parseTraceparent('garbage')).toBeUndefined();
  });

  it('links a resumed drive to the one before, ending what a kill left open as interrupted', () => {
    const events = sampleRun().slice(0, 6);
    events.push(at({ type: 'run_started', pipeline: 'review', steps: ['plan'], resumed: true }));
    events.push(at({ type: 'run_finished', status: 'completed', durationMs: 1, tokens }));
    const spans = traceOfEvents(events, OFF);
    const [first, second] = named(spans, 'invoke_workflow review');
    expect(first!.attributes['wave.run.interrupted']).toBe(true);
    expect(second!.links).toEqual([{ traceId: traceIdOfRun(RUN), spanId: first!.spanId, attributes: { 'wave.link': 'resumed' } }]);
    expect(only(spans, 'invoke_agent claude').attributes['error.type']).toBe('interrupted');
    expect(only(spans, 'execute_tool Bash').endMs).toBe(only(spans, 'invoke_agent claude').endMs);
    // What the kill left ends where the first drive's record ends, not when the resume came.
    expect(first!.endMs).toBe(Date.parse(events[5]!.ts));
  });

  it('links a replay to the run it replays', () => {
    const events = sampleRun();
    const recorded = 'review-20240401-080000-0000';
    const first = events[0] as Extract<RunEvent, { type: 'run_created' }>;
    events[0] = { ...first, options: { ...first.options, replayOf: `/p/.wave/runs/${recorded}` } };
    const run = only(traceOfEvents(events, OFF), 'invoke_workflow review');
    expect(run.links).toEqual([{ traceId: traceIdOfRun(recorded), spanId: runSpanId(recorded, 1), attributes: { 'wave.link': 'replayed', 'wave.replayed_run_id': recorded } }]);
  });

  it('names the provider by the v1.36 name beside the current one unless OTEL_SEMCONV_STABILITY_OPT_IN asks for the latest only', () => {
    const both = traceSettingsOf({});
    expect(named(traceOfEvents(sampleRun(), both), 'invoke_agent navigator')[0]!.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.system': 'anthropic' });
    const latest = traceSettingsOf({ OTEL_SEMCONV_STABILITY_OPT_IN: 'http, gen_ai_latest_experimental' });
    expect(named(traceOfEvents(sampleRun(), latest), 'invoke_agent navigator')[0]!.attributes['gen_ai.system']).toBeUndefined();
    expect(traceSettingsOf({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE' }).captureContent).toBe(true);
    expect(traceSettingsOf({}).captureContent).toBe(false);
  });

  it('marks an attempt a sandbox limit stopped with a wave.limit_exceeded event', () => {
    const events = sampleRun().slice(0, 4);
    const limit = { class: 'limit_exceeded', message: 'the sandbox memory limit (512 MiB) was reached' } as const;
    events.push(at({ type: 'attempt_finished', stepId: 'plan', attempt: 1, adapter: 'claude', passed: false, exitCode: 137, durationMs: 1, tokens, text: '', failure: limit }));
    const [attempt] = traceOfEvents(events, OFF).filter((span) => span.name === 'invoke_agent claude');
    expect(attempt!.attributes['error.type']).toBe('limit_exceeded');
    expect(attempt!.events.map((event) => [event.name, event.attributes['wave.limit.message']])).toEqual([['wave.limit_exceeded', limit.message]]);
  });

  it('marks an attempt --simulate answered or a replay served', () => {
    const events = sampleRun().slice(0, 4);
    events.push(at({ type: 'simulated', stepId: 'plan', attempt: 1, purpose: 'step', answer: 'schema', generated: [], placeholders: [], fixtures: [] }));
    events.push(at({ type: 'replay_matched', stepId: 'plan', attempt: 1, purpose: 'step', from: 'r/steps/plan/attempt-1' }));
    const [attempt] = traceOfEvents(events, OFF).filter((span) => span.name === 'invoke_agent claude');
    expect(attempt!.attributes).toMatchObject({ 'wave.simulated': true, 'wave.replayed': true });
  });

  it('folds one event of every type into ended spans that never start after they end and whose parents are in the trace', () => {
    const spans = traceOfEvents(EVERY_EVENT, OFF);
    const ids = new Set(spans.map((span) => span.spanId));
    expect(ids.size).toBe(spans.length);
    for (const span of spans) {
      expect(span.endMs).toBeGreaterThanOrEqual(span.startMs);
      if (span.parentSpanId !== undefined) expect(ids.has(span.parentSpanId), span.name).toBe(true);
    }
    expect(spans.some((span) => span.name.startsWith('chat '))).toBe(true);
  });
});
