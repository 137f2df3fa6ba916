import type { RunEvent } from '../events.js';
import type { Attributes, TraceSpan } from './trace-span.js';
import { AttemptTrace } from './attempt-trace.js';
import { addSpanEvent, endSpan, failSpan, openSpan, type OpenSpan } from './open-span.js';
import type { TraceSettings } from './gen-ai-attributes.js';
import { stepSpanId } from './trace-ids.js';

type EventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** A step event that ends the step's visit. */
export type StepEndEvent = EventOf<'step_completed' | 'step_failed' | 'step_rejected' | 'step_skipped' | 'step_cancelled'>;

/** Where a step's span hangs: its run's trace and current session. */
export interface StepPlace {
  traceId: string;
  runId: string;
  sessionSpanId: string;
  session: number;
  settings: TraceSettings;
}

/** One step of a run: its visits' spans (a loop or a gate choice runs it again), and its attempts under them. */
export class StepTrace {
  private visits = 0;
  private span: OpenSpan | undefined;
  private readonly attempts = new Map<number, AttemptTrace>();
  /** How many model requests the step made, so each has an id of its own. */
  modelRequests = 0;

  constructor(readonly stepId: string) {}

  /** The step's open span, opened at `atMs` when it has none or a new visit begins. */
  spanAt(place: StepPlace, atMs: number, newVisit = false): OpenSpan {
    if (this.span && !newVisit) return this.span;
    // Each span of the step gets an id of its own: a visit, or what came after its end without a new one (a resume's).
    this.visits++;
    this.span = openSpan({
      traceId: place.traceId,
      spanId: stepSpanId(place.runId, this.stepId, this.visits, place.session),
      parentSpanId: place.sessionSpanId,
      name: `step ${this.stepId}`,
      startMs: atMs,
      attributes: { 'wave.step.id': this.stepId },
    });
    return this.span;
  }

  /** The step's open span, if it has one. */
  get openSpan(): OpenSpan | undefined {
    return this.span;
  }

  /** An attempt started under the step's span. */
  startAttempt(place: StepPlace, event: EventOf<'step_started'>): void {
    const parent = this.spanAt(place, Date.parse(event.ts));
    const attempt = new AttemptTrace({ ...place, stepId: this.stepId, parentSpanId: parent.spanId }, event);
    this.attempts.set(event.attempt, attempt);
  }

  /** The attempt `n` while it runs. */
  attempt(n: number): AttemptTrace | undefined {
    return this.attempts.get(n);
  }

  /** The attempt ended; its spans (and its tool calls') are done. */
  endAttempt(n: number, end: (attempt: AttemptTrace) => TraceSpan[]): TraceSpan[] {
    const attempt = this.attempts.get(n);
    if (!attempt) return [];
    this.attempts.delete(n);
    return end(attempt);
  }

  /** An event on the step's span (a retry's wait, a contract's verdict, a gate), or none when the step has no open span. */
  note(name: string, atMs: number, attributes: Attributes): void {
    if (this.span) addSpanEvent(this.span, name, atMs, attributes);
  }

  /** The visit ended as `event` says; attempts still open end with it. A step set aside before it began gets an instant span. */
  end(place: StepPlace, event: StepEndEvent): TraceSpan[] {
    const at = Date.parse(event.ts);
    const span = this.spanAt(place, at);
    const status = event.type.slice('step_'.length);
    span.attributes['wave.step.status'] = status;
    if (event.type === 'step_skipped') span.attributes['wave.step.skip_reason'] = event.reason;
    const failure = 'failure' in event ? event.failure : undefined;
    if (failure && (event.type === 'step_failed' || event.type === 'step_cancelled')) failSpan(span, failure.class, failure.message);
    else if (failure) span.attributes['wave.failure.class'] = failure.class;
    return this.close(at, 'step_ended');
  }

  /** Ends what is open at `atMs`: attempts (failed as `reason`) and the step's span, left with no status of its own. */
  close(atMs: number, reason: string): TraceSpan[] {
    const ended = [...this.attempts.values()].flatMap((attempt) => attempt.abandon(atMs, reason));
    this.attempts.clear();
    if (this.span) ended.push(endSpan(this.span, atMs));
    this.span = undefined;
    return ended;
  }
}
