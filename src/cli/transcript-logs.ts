import { join } from 'node:path';
import type { RunEvent } from '../events.js';
import { safeValues } from '../report/safe-values.js';
import { renderStepTranscript } from '../report/step-transcript.js';
import { EventsTail } from '../state/events-tail.js';
import type { RunRecord } from '../state/record/run-record.js';
import { EVENTS_FILE } from '../state/run-store.js';

/** The events `wave logs` renders agent steps from: the chosen steps' events of events.ndjson, read on as it grows. */
export class TranscriptLogs {
  private readonly tail: EventsTail;
  private readonly events: RunEvent[] = [];

  constructor(
    runDir: string,
    private readonly stepIds: readonly string[],
    private readonly options: { attempt?: number; color: boolean },
  ) {
    this.tail = new EventsTail(join(runDir, EVENTS_FILE));
  }

  /** Reads the events appended since the last call. */
  async refresh(): Promise<void> {
    // Shown in a terminal: every string made safe once, as it is read.
    for (const event of await this.tail.read()) if ('stepId' in event && this.stepIds.includes(event.stepId)) this.events.push(safeValues(event));
  }

  /**
   * Whether the step's output is an agent's stream (rendered as a transcript) rather than plain text: its attempts'
   * adapter type says so; a run recorded without it, whether its events hold stream events.
   */
  isAgentStep(record: RunRecord, stepId: string): boolean {
    const typed = (record.steps[stepId]?.attempts ?? []).filter((a) => a.adapterType !== undefined);
    if (typed.length) return typed.some((a) => a.adapterType !== 'process');
    return this.events.some((e) => e.type === 'step_event' && e.stepId === stepId);
  }

  /** The step's transcript so far; `live` holds back a message still streaming in. */
  lines(stepId: string, live: boolean): string[] {
    return renderStepTranscript(this.events, stepId, { ...this.options, live });
  }
}
