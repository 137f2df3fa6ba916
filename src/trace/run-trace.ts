import { basename } from 'node:path';
import type { RunEvent } from '../events.js';
import type { TraceSettings } from './gen-ai-attributes.js';
import { addSpanEvent, endSpan, failSpan, openSpan, type OpenSpan } from './open-span.js';
import { StepTrace, type StepPlace } from './step-trace.js';
import { runSpanId, traceIdOfRun, type SpanContextIds } from './trace-ids.js';
import type { TraceSpan, TraceSpanEvent, TraceSpanLink } from './trace-span.js';

type EventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** What a run's spans hang under: the trace and span of its parent (a parent run's step, or the caller's TRACEPARENT). */
export interface RunPlacement {
  traceId: string;
  parentSpanId?: string;
}

/** One run of the trace: its sessions (a start, then each resume) and its steps. */
export class RunTrace {
  private pipeline = '';
  private replayOf: string | undefined;
  private attributes: Record<string, string> = {};
  private session = 0;
  private sessionSpan: OpenSpan | undefined;
  private readonly steps = new Map<string, StepTrace>();
  private waitingNotes: TraceSpanEvent[] = [];
  /** The time of the run's latest event: where what is left open ends. */
  lastMs = 0;

  constructor(
    readonly runId: string,
    private readonly placement: RunPlacement,
    private readonly settings: TraceSettings,
  ) {}

  /** The trace the run belongs to. */
  get traceId(): string {
    return this.placement.traceId;
  }

  /** What the run's first event says: its pipeline, its parent, the run it replays. */
  created(event: EventOf<'run_created'>): void {
    this.pipeline = event.pipeline;
    this.replayOf = event.options.replayOf;
    if (event.parentId !== undefined) this.attributes['wave.parent_run_id'] = event.parentId;
    if (event.parentStepId !== undefined) this.attributes['wave.parent_step_id'] = event.parentStepId;
    if (event.childKind !== undefined) this.attributes['wave.child_kind'] = event.childKind;
  }

  /** A drive of the run began (its start, or a resume): the spans a killed drive left open end, and a new run span opens. */
  startSession(event: EventOf<'run_started'>): TraceSpan[] {
    const ended = this.closeSession(this.lastMs, true);
    const at = Date.parse(event.ts);
    this.pipeline = this.pipeline || event.pipeline;
    const links: TraceSpanLink[] = [];
    if (this.session > 0) links.push({ traceId: this.traceId, spanId: runSpanId(this.runId, this.session), attributes: { 'wave.link': 'resumed' } });
    if (this.replayOf !== undefined) {
      const recorded = basename(this.replayOf);
      links.push({ traceId: traceIdOfRun(recorded), spanId: runSpanId(recorded, 1), attributes: { 'wave.link': 'replayed', 'wave.replayed_run_id': recorded } });
    }
    this.session++;
    this.sessionSpan = openSpan({
      traceId: this.traceId,
      spanId: runSpanId(this.runId, this.session),
      ...(this.placement.parentSpanId !== undefined ? { parentSpanId: this.placement.parentSpanId } : {}),
      name: `invoke_workflow ${this.pipeline}`,
      startMs: at,
      attributes: {
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.workflow.name': this.pipeline,
        'wave.run_id': this.runId,
        'wave.run.session': this.session,
        'wave.run.resumed': event.resumed,
        ...this.attributes,
      },
    });
    this.sessionSpan.links.push(...links);
    this.sessionSpan.events.push(...this.waitingNotes.splice(0));
    return ended;
  }

  /** The drive ended: its steps' spans, then the run span with the run's status, usage and cost. */
  finish(event: EventOf<'run_finished'>): TraceSpan[] {
    const span = this.openSession(Date.parse(event.ts));
    Object.assign(span.attributes, {
      'wave.run.status': event.status,
      'wave.run.input_tokens': event.tokens.input,
      'wave.run.output_tokens': event.tokens.output,
      ...(event.costUsd !== undefined ? { 'wave.run.cost_usd': event.costUsd } : {}),
    });
    if (event.status === 'failed' || event.status === 'cancelled') failSpan(span, event.status);
    return this.closeSession(Date.parse(event.ts), false);
  }

  /** Ends whatever is open at `atMs`; `cut`: the drive ended without its run_finished (a kill), or the record ends here. */
  closeSession(atMs: number, cut: boolean): TraceSpan[] {
    const ended = [...this.steps.values()].flatMap((step) => step.close(atMs, 'interrupted'));
    if (this.sessionSpan) {
      if (cut) this.sessionSpan.attributes['wave.run.interrupted'] = true;
      ended.push(endSpan(this.sessionSpan, atMs));
    }
    this.sessionSpan = undefined;
    return ended;
  }

  /** The step `stepId` of the run, and where its spans go; a run that never said it started opens its session here. */
  step(stepId: string, atMs: number): { step: StepTrace; place: StepPlace } {
    const span = this.openSession(atMs);
    let step = this.steps.get(stepId);
    if (!step) this.steps.set(stepId, (step = new StepTrace(stepId)));
    return { step, place: { traceId: this.traceId, runId: this.runId, sessionSpanId: span.spanId, session: this.session, settings: this.settings } };
  }

  /** A note on the run's span; one that comes between drives (a resume's reset steps) waits for the next drive's. */
  note(name: string, atMs: number, attributes: TraceSpan['attributes']): void {
    if (this.sessionSpan) addSpanEvent(this.sessionSpan, name, atMs, attributes);
    else this.waitingNotes.push({ name, timeMs: atMs, attributes });
  }

  private openSession(atMs: number): OpenSpan {
    if (!this.sessionSpan)
      this.startSession({ v: 1, ts: new Date(atMs).toISOString(), runId: this.runId, type: 'run_started', pipeline: this.pipeline, steps: [], resumed: this.session > 0 });
    return this.sessionSpan!;
  }
}

/** Where a run's spans go: under its parent run's step when the fold knows it, else under the caller's parent or at the root of a trace of its own. */
export function placementOf(event: EventOf<'run_created'> | undefined, runs: ReadonlyMap<string, RunTrace>, parent: SpanContextIds | undefined, runId: string): RunPlacement {
  const parentRun = event?.parentId !== undefined ? runs.get(event.parentId) : undefined;
  if (parentRun && event?.parentStepId !== undefined) {
    const at = Date.parse(event.ts);
    const { step, place } = parentRun.step(event.parentStepId, at);
    return { traceId: parentRun.traceId, parentSpanId: step.spanAt(place, at).spanId };
  }
  if (parent) return { traceId: parent.traceId, parentSpanId: parent.spanId };
  return { traceId: traceIdOfRun(runId) };
}
