import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as core from '@actions/core';
import { attemptLogPath } from '../../state/step-logs.js';
import type { CommandFreeLog } from './github-command-free.js';
import { safeText } from '../../core/terminal-safe.js';
import type { RunEvent } from '../../events.js';
import { renderStepTranscript } from '../step-transcript.js';

/** An event of one step. */
export type StepRunEvent = Extract<RunEvent, { stepId: string }>;

/** Stream pieces that add no line to a live transcript: a message shows once it is whole, thinking and usage never. */
const SILENT_WHILE_LIVE = new Set(['text', 'thinking', 'usage']);

/** The most of a step's stdout and stderr its log group shows: the tail, where failures are. */
const LOG_TAIL_BYTES = 64 * 1024;

/**
 * One log group per step in the Action's log: its event lines, then its output. A group is printed whole when its
 * step ends, so parallel steps never interleave, or streamed as the step runs when steps run one at a time (`live`).
 * An agent step's group shows its conversation as `wave logs` renders it, never the CLI's raw stream on stdout.
 */
export class GithubStepGroups {
  private readonly lines = new Map<string, string[]>();
  /** Each agent step's events from its first attempt on, and how many lines of its transcript were printed. */
  private readonly transcripts = new Map<string, { events: StepRunEvent[]; printed: number }>();
  // The step whose group is open and streaming; any other step's lines wait in `lines`, and its finished group in `waiting`.
  private liveStep: string | undefined;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly log: CommandFreeLog,
    /** The run folder, where each attempt's stdout and stderr are stored. */
    private readonly runDir: string,
    private readonly live: boolean,
  ) {}

  /**
   * Takes an event of a step and its line, if it has one: printed at once in the step's live group, else kept for its
   * group. From an agent step's first attempt on, its transcript stands for the lines.
   */
  add(event: StepRunEvent, line: string | undefined): void {
    const { stepId } = event;
    if (this.live && this.liveStep === undefined && !this.lines.has(stepId)) {
      this.liveStep = stepId;
      this.startGroup(stepId);
    }
    if (event.type === 'step_started' && event.adapterType !== undefined && event.adapterType !== 'process' && !this.transcripts.has(stepId)) {
      this.transcripts.set(stepId, { events: [], printed: 0 });
    }
    const transcript = this.transcripts.get(stepId);
    if (transcript) {
      transcript.events.push(event);
      if (this.liveStep === stepId && !(event.type === 'step_event' && SILENT_WHILE_LIVE.has(event.event.kind))) this.printTranscript(stepId, true);
      return;
    }
    if (line === undefined) return;
    if (this.liveStep === stepId) this.log.untrusted(line);
    else this.lines.set(stepId, [...(this.lines.get(stepId) ?? []), line]);
  }

  /** The lines of a step's transcript not printed yet; `live` holds back a message still streaming in. */
  private printTranscript(stepId: string, live: boolean): void {
    const transcript = this.transcripts.get(stepId);
    if (!transcript) return;
    const lines = renderStepTranscript(transcript.events, stepId, { live });
    for (const line of lines.slice(transcript.printed)) this.log.untrusted(line);
    transcript.printed = Math.max(transcript.printed, lines.length);
  }

  /** Prints a step's group, headed by how it ended, with the output of `attempt` when given; waits while another step's group is live. */
  flush(stepId: string, heading: string, attempt?: number): void {
    if (this.liveStep !== undefined && this.liveStep !== stepId) {
      this.waiting.push(() => this.flush(stepId, heading, attempt));
      return;
    }
    if (this.liveStep === undefined) this.startGroup(`${stepId}: ${heading}`);
    for (const line of this.lines.get(stepId) ?? []) this.log.untrusted(line);
    this.printTranscript(stepId, false);
    if (attempt !== undefined) {
      // An agent's stdout is its raw stream, which the transcript above renders.
      for (const stream of this.transcripts.has(stepId) ? (['stderr'] as const) : (['stdout', 'stderr'] as const)) {
        const text = readTail(attemptLogPath(this.runDir, stepId, attempt, stream));
        if (text.trim()) this.log.untrusted(`--- ${stream} (attempt ${attempt}) ---\n${safeText(text.trimEnd())}`);
      }
    }
    this.log.resume();
    core.endGroup();
    this.lines.delete(stepId);
    this.transcripts.delete(stepId);
    if (this.liveStep !== stepId) return;
    this.liveStep = undefined;
    for (const next of this.waiting.splice(0)) next();
  }

  /** Prints the groups of steps that never ended, as unfinished. */
  flushUnfinished(): void {
    if (this.liveStep !== undefined) this.flush(this.liveStep, 'unfinished');
    for (const stepId of [...this.lines.keys()]) this.flush(stepId, 'unfinished');
  }

  private startGroup(title: string): void {
    this.log.resume();
    core.startGroup(title);
  }
}

/** The last LOG_TAIL_BYTES of a file, or '' when it does not exist. */
function readTail(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return '';
  }
  try {
    const size = statSync(path).size;
    const start = Math.max(0, size - LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start > 0 ? `[${start} bytes before this are in the run folder]\n${text.slice(text.indexOf('\n') + 1)}` : text;
  } finally {
    closeSync(fd);
  }
}
