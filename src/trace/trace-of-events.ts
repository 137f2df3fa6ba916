import type { RunEvent } from '../events.js';
import type { TraceSettings } from './gen-ai-attributes.js';
import { modelRequestSpan } from './model-request-span.js';
import { placementOf, RunTrace } from './run-trace.js';
import { runNoteOf, stepNoteOf } from './span-notes.js';
import type { StepEndEvent } from './step-trace.js';
import type { SpanContextIds } from './trace-ids.js';
import type { TraceSpan } from './trace-span.js';

/** How a run's events become a trace. */
export interface TraceOptions extends TraceSettings {
  /** The span the top run hangs under, from outside (the TRACEPARENT Wave was started with); a trace of its own when absent. */
  parent?: SpanContextIds;
}

const STEP_ENDS: ReadonlySet<RunEvent['type']> = new Set(['step_completed', 'step_failed', 'step_rejected', 'step_skipped', 'step_cancelled']);

/**
 * The trace of a run tree, folded one event at a time: each event returns the spans it ended, so a live exporter
 * sends them as they end and a later fold of the same events gives the same spans (ids are derived from run, step
 * and attempt, never random).
 */
export class TraceFold {
  private readonly runs = new Map<string, RunTrace>();
  private readonly adapterTypes = new Map<string, NonNullable<Extract<RunEvent, { type: 'step_started' }>['adapterType']>>();

  constructor(private readonly options: TraceOptions) {}

  /** Folds one event (of the run or any of its child runs) and returns the spans it ended. */
  add(event: RunEvent): TraceSpan[] {
    const at = Date.parse(event.ts);
    const run = this.runOf(event);
    const ended = this.addToRun(run, event, at);
    // Moved on after the event: a resume's run_started ends what the killed drive left at that drive's last event.
    run.lastMs = Math.max(run.lastMs, at);
    return ended;
  }

  private addToRun(run: RunTrace, event: RunEvent, at: number): TraceSpan[] {
    if (event.type === 'run_created') run.created(event);
    else if (event.type === 'run_started') return run.startSession(event);
    else if (event.type === 'run_finished') return run.finish(event);
    else if ('stepId' in event) return this.addStepEvent(run, event, at);
    else {
      const note = runNoteOf(event);
      if (note) run.note(note[0], at, note[1]);
    }
    return [];
  }

  /** Ends every span still open where its run's record ends (a run still going, or killed), marked interrupted. */
  finish(): TraceSpan[] {
    return [...this.runs.values()].reverse().flatMap((run) => run.closeSession(run.lastMs, true));
  }

  private addStepEvent(run: RunTrace, event: Extract<RunEvent, { stepId: string }>, at: number): TraceSpan[] {
    const { step, place } = run.step(event.stepId, at);
    switch (event.type) {
      case 'step_began':
        step.spanAt(place, at, true);
        return [];
      case 'step_started':
        if (event.adapterType !== undefined) this.adapterTypes.set(event.adapter, event.adapterType);
        step.startAttempt(place, event);
        return [];
      case 'step_event':
        return step.attempt(event.attempt)?.onStream(event) ?? [];
      case 'attempt_finished':
        return step.endAttempt(event.attempt, (attempt) => attempt.finish(event));
      case 'attempt_interrupted':
        return step.endAttempt(event.attempt, (attempt) => attempt.abandon(at, 'interrupted'));
      case 'model_request': {
        const parent = step.attempt(event.attempt)?.span ?? step.spanAt(place, at);
        const adapterType = this.adapterTypes.get(event.adapter);
        return [modelRequestSpan(event, { ...place, parentSpanId: parent.spanId, index: ++step.modelRequests, ...(adapterType ? { adapterType } : {}) })];
      }
      case 'simulated':
      case 'replay_matched': {
        // Its own attempt served without its adapter: a backend should not read it as the model's work.
        const attempt = event.purpose === 'step' ? step.attempt(event.attempt) : undefined;
        if (attempt) attempt.span.attributes[event.type === 'simulated' ? 'wave.simulated' : 'wave.replayed'] = true;
        return [];
      }
      case 'egress': {
        const attempt = step.attempt(event.attempt);
        if (!event.allowed && attempt) attempt.onEgressDenied(event);
        else if (!event.allowed) step.note('wave.egress.denied', at, stepNoteOf(event)![1]);
        return [];
      }
      default:
        if (STEP_ENDS.has(event.type)) return step.end(place, event as StepEndEvent);
        this.noteOnStep(step, event, at);
        return [];
    }
  }

  private noteOnStep(step: ReturnType<RunTrace['step']>['step'], event: RunEvent, at: number): void {
    const note = stepNoteOf(event);
    if (note) step.note(note[0], at, note[1]);
  }

  private runOf(event: RunEvent): RunTrace {
    let run = this.runs.get(event.runId);
    if (!run) {
      const created = event.type === 'run_created' ? event : undefined;
      run = new RunTrace(event.runId, placementOf(created, this.runs, this.options.parent, event.runId), this.options);
      this.runs.set(event.runId, run);
    }
    return run;
  }
}

/** The spans of a run tree's events (the run's and its child runs', in the order they happened), every span ended. */
export function traceOfEvents(events: readonly RunEvent[], options: TraceOptions): TraceSpan[] {
  const fold = new TraceFold(options);
  return [...events.flatMap((event) => fold.add(event)), ...fold.finish()];
}
