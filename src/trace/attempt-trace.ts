import type { AdapterType } from '../core/resolved-adapter.js';
import type { RunEvent } from '../events.js';
import { invokesAgent, providerAttributes, providerOf, usageAttributes, type TraceSettings } from './gen-ai-attributes.js';
import { addSpanEvent, endSpan, failSpan, openSpan, type OpenSpan } from './open-span.js';
import { attemptSpanId, callSpanId } from './trace-ids.js';
import type { TraceSpan } from './trace-span.js';

type EventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;
type StreamEventOf<K extends string> = Extract<EventOf<'step_event'>['event'], { kind: K }>;

/** Where an attempt's span hangs: its run's trace, the step's span. */
export interface AttemptPlace {
  traceId: string;
  runId: string;
  stepId: string;
  parentSpanId: string;
  settings: TraceSettings;
}

/** One attempt's span and the tool calls in it still waiting for their results. */
export class AttemptTrace {
  readonly span: OpenSpan;
  private readonly agent: boolean;
  private readonly attempt: number;
  private calls = 0;
  private readonly tools: OpenSpan[] = [];

  constructor(
    private readonly place: AttemptPlace,
    started: EventOf<'step_started'>,
  ) {
    const type: AdapterType | undefined = started.adapterType;
    this.attempt = started.attempt;
    this.agent = invokesAgent(type);
    this.span = openSpan({
      traceId: place.traceId,
      spanId: attemptSpanId(place.runId, place.stepId, started.attempt),
      parentSpanId: place.parentSpanId,
      name: this.agent ? `invoke_agent ${started.adapter}` : `attempt ${place.stepId}`,
      kind: this.agent ? 'client' : 'internal',
      startMs: Date.parse(started.ts),
      attributes: {
        ...(this.agent ? { 'gen_ai.operation.name': 'invoke_agent' } : {}),
        ...(type !== undefined ? providerAttributes(providerOf(type, started.model), place.settings) : {}),
        ...(started.model !== undefined ? { 'gen_ai.request.model': started.model } : {}),
        'wave.step.id': place.stepId,
        'wave.attempt': started.attempt,
        'wave.adapter': started.adapter,
        ...(started.kind === 'rework' && started.reworkOf !== undefined ? { 'wave.rework_of': started.reworkOf } : {}),
      },
    });
  }

  /** Folds what the agent's stream said: its session and model, tool calls and results, its own retries. Returns the tool spans it ended. */
  onStream(event: EventOf<'step_event'>): TraceSpan[] {
    const stream = event.event;
    const at = Date.parse(event.ts);
    if (stream.kind === 'system') {
      if (stream.sessionId) this.span.attributes['gen_ai.conversation.id'] = stream.sessionId;
      if (stream.model) this.span.attributes['gen_ai.response.model'] = stream.model;
    } else if (stream.kind === 'tool_use') this.startTool(stream, at);
    else if (stream.kind === 'tool_result') return this.endTool(stream, at);
    else if (stream.kind === 'retry') {
      addSpanEvent(this.span, 'wave.model_retry', at, {
        ...(stream.delayMs !== undefined ? { 'wave.retry.delay_ms': stream.delayMs } : {}),
        ...(stream.status !== undefined ? { 'http.response.status_code': stream.status } : {}),
      });
    }
    return [];
  }

  /** A host the sandbox's egress proxy refused the attempt. */
  onEgressDenied(event: EventOf<'egress'>): void {
    addSpanEvent(this.span, 'wave.egress.denied', Date.parse(event.ts), {
      'server.address': event.host,
      'server.port': event.port,
      'wave.egress.via': event.via,
      ...(event.reason !== undefined ? { 'wave.egress.reason': event.reason } : {}),
    });
  }

  /** The attempt ended: its usage, session, failure class; its tool calls still open end with it. */
  finish(event: EventOf<'attempt_finished'>): TraceSpan[] {
    const at = Date.parse(event.ts);
    const attributes = this.span.attributes;
    if (this.agent) {
      this.span.name = `invoke_agent ${event.persona ?? event.adapter}`;
      if (event.persona !== undefined) attributes['gen_ai.agent.name'] = event.persona;
      Object.assign(attributes, usageAttributes(event.tokens, event.costUsd));
    } else if (event.costUsd !== undefined) attributes['wave.cost_usd'] = event.costUsd;
    if (event.sessionId !== undefined) attributes['gen_ai.conversation.id'] = event.sessionId;
    if (event.model !== undefined && attributes['gen_ai.response.model'] === undefined) attributes['gen_ai.response.model'] = event.model;
    if (event.exitCode !== null) attributes['wave.exit_code'] = event.exitCode;
    if (event.failure) failSpan(this.span, event.failure.class, event.failure.message);
    if (event.failure?.class === 'limit_exceeded') addSpanEvent(this.span, 'wave.limit_exceeded', at, { 'wave.limit.message': event.failure.message });
    if (this.place.settings.captureContent && this.agent && event.text) {
      attributes['gen_ai.output.messages'] = JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: event.text }], finish_reason: event.passed ? 'stop' : 'error' },
      ]);
    }
    return this.close(at);
  }

  /** The attempt ended without its own end: interrupted (the Wave process was killed) or cut off where the record ends. */
  abandon(atMs: number, reason: string): TraceSpan[] {
    failSpan(this.span, reason);
    return this.close(atMs);
  }

  private close(atMs: number): TraceSpan[] {
    const tools = this.tools.splice(0).map((tool) => endSpan(tool, atMs));
    return [...tools, endSpan(this.span, atMs)];
  }

  private startTool(use: StreamEventOf<'tool_use'>, at: number): void {
    const { runId, stepId } = this.place;
    const tool = openSpan({
      traceId: this.place.traceId,
      spanId: callSpanId(runId, stepId, this.attempt, { kind: 'tool', index: ++this.calls }),
      parentSpanId: this.span.spanId,
      name: `execute_tool ${use.name}`,
      startMs: at,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': use.name,
        ...(use.id !== undefined ? { 'gen_ai.tool.call.id': use.id } : {}),
        ...(this.place.settings.captureContent && use.target !== undefined ? { 'gen_ai.tool.call.arguments': use.target } : {}),
      },
    });
    this.tools.push(tool);
  }

  private endTool(result: StreamEventOf<'tool_result'>, at: number): TraceSpan[] {
    // A result names its call by id; a CLI that gives no ids answers its calls in order.
    const index = this.tools.findIndex((tool) =>
      result.id === undefined ? tool.attributes['gen_ai.tool.call.id'] === undefined : tool.attributes['gen_ai.tool.call.id'] === result.id,
    );
    if (index < 0) return [];
    const [tool] = this.tools.splice(index, 1);
    if (result.isError) failSpan(tool!, 'tool_error');
    if (this.place.settings.captureContent && result.content !== undefined) tool!.attributes['gen_ai.tool.call.result'] = result.content;
    return [endSpan(tool!, at)];
  }
}
