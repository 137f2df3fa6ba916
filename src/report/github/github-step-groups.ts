import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as core from '@actions/core';
import { attemptLogPath } from '../../state/step-logs.js';
import type { CommandFreeLog } from './github-command-free.js';
import { safeText } from '../../core/terminal-safe.js';

/** The most of a step's stdout and stderr its log group shows: the tail, where failures are. */
const LOG_TAIL_BYTES = 64 * 1024;

/**
 * One log group per step in the Action's log: its event lines, then its output. A group is printed whole when its
 * step ends, so parallel steps never interleave, or streamed as the step runs when steps run one at a time (`live`).
 */
export class GithubStepGroups {
  private readonly lines = new Map<string, string[]>();
  // The step whose group is open and streaming; any other step's lines wait in `lines`, and its finished group in `waiting`.
  private liveStep: string | undefined;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly log: CommandFreeLog,
    /** The run folder, where each attempt's stdout and stderr are stored. */
    private readonly runDir: string,
    private readonly live: boolean,
  ) {}

  /** Takes an event of a step and its line, if it has one: printed at once in the step's live group, else kept for its group. */
  add(stepId: string, line: string | undefined): void {
    if (this.live && this.liveStep === undefined && !this.lines.has(stepId)) {
      this.liveStep = stepId;
      this.startGroup(stepId);
    }
    if (line === undefined) return;
    if (this.liveStep === stepId) this.log.untrusted(line);
    else this.lines.set(stepId, [...(this.lines.get(stepId) ?? []), line]);
  }

  /** Prints a step's group, headed by how it ended, with the output of `attempt` when given; waits while another step's group is live. */
  flush(stepId: string, heading: string, attempt?: number): void {
    if (this.liveStep !== undefined && this.liveStep !== stepId) {
      this.waiting.push(() => this.flush(stepId, heading, attempt));
      return;
    }
    if (this.liveStep === undefined) this.startGroup(`${stepId}: ${heading}`);
    for (const line of this.lines.get(stepId) ?? []) this.log.untrusted(line);
    if (attempt !== undefined) {
      for (const stream of ['stdout', 'stderr'] as const) {
        const text = readTail(attemptLogPath(this.runDir, stepId, attempt, stream));
        if (text.trim()) this.log.untrusted(`--- ${stream} (attempt ${attempt}) ---\n${safeText(text.trimEnd())}`);
      }
    }
    this.log.resume();
    core.endGroup();
    this.lines.delete(stepId);
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
