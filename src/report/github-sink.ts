import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as core from '@actions/core';
import type { SourceLocation } from '../core/errors.js';
import type { RunEvent } from '../events.js';
import { attemptLogPath } from '../state/step-logs.js';
import { describeFailure } from './describe.js';
import { formatClock } from './format.js';
import { printAnnotations, type Annotation } from './github-annotations.js';
import { commandFreeLog } from './github-command-free.js';
import { safeValues } from './safe-values.js';
import type { RunSink } from './sink-types.js';
import { describeEvent } from './text.js';
import { safeText } from '../core/terminal-safe.js';

/** The most of a step's stdout and stderr its log group shows: the tail, where failures are. */
const LOG_TAIL_BYTES = 64 * 1024;

export interface GithubSinkOptions {
  /** The run folder, where each attempt's stdout and stderr are stored. */
  runDir: string;
  /** Each step's entry in the pipeline file, relative to the repository root. */
  stepLocations: ReadonlyMap<string, SourceLocation>;
  /** No two steps run at once: a step's group opens at its first event and its lines are printed as they come. */
  live?: boolean;
}

/**
 * The GitHub Actions sink: one log group per step (its events, then its output), printed when the step ends so
 * parallel steps never interleave, or streamed as the step runs when steps run one at a time; an error annotation per
 * failed step at its line, warnings for contract warnings and egress denials, printed capped when the run ends. What
 * steps wrote is printed inside `::stop-commands::` regions, Wave's own groups and annotations outside them.
 */
export function createGithubSink(options: GithubSinkOptions): RunSink {
  const lines = new Map<string, string[]>();
  // The step whose group is open and streaming; any other step's lines wait in `lines`, and its finished group in `waiting`.
  let liveStep: string | undefined;
  const waiting: Array<() => void> = [];
  const annotations: Annotation[] = [];
  const log = commandFreeLog((line) => core.info(line));
  const startGroup = (title: string) => {
    log.resume();
    core.startGroup(title);
  };
  const at = (stepId: string) => {
    const location = options.stepLocations.get(stepId);
    return location ? { file: location.file, line: location.line, column: location.column } : {};
  };
  const flush = (stepId: string, heading: string, attempt?: number) => {
    if (liveStep !== undefined && liveStep !== stepId) {
      waiting.push(() => flush(stepId, heading, attempt));
      return;
    }
    if (liveStep === undefined) startGroup(`${stepId}: ${heading}`);
    for (const line of lines.get(stepId) ?? []) log.untrusted(line);
    if (attempt !== undefined) {
      for (const stream of ['stdout', 'stderr'] as const) {
        const text = readTail(attemptLogPath(options.runDir, stepId, attempt, stream));
        if (text.trim()) log.untrusted(`--- ${stream} (attempt ${attempt}) ---\n${safeText(text.trimEnd())}`);
      }
    }
    log.resume();
    core.endGroup();
    lines.delete(stepId);
    if (liveStep !== stepId) return;
    liveStep = undefined;
    for (const next of waiting.splice(0)) next();
  };

  return {
    handle(untrusted: RunEvent) {
      // Annotations and lines alike show a step's control characters escaped.
      const event = safeValues(untrusted);
      const text = describeEvent(event, (id) => id);
      if (!('stepId' in event)) {
        if (text !== undefined) log.untrusted(`${formatClock(event.ts)} ${text}`);
        return;
      }
      if (options.live && liveStep === undefined && !lines.has(event.stepId)) {
        liveStep = event.stepId;
        startGroup(event.stepId);
      }
      if (text !== undefined) {
        const line = `${formatClock(event.ts)} ${text}`;
        if (liveStep === event.stepId) log.untrusted(line);
        else lines.set(event.stepId, [...(lines.get(event.stepId) ?? []), line]);
      }
      switch (event.type) {
        case 'step_failed': {
          const failure = [describeFailure(event.failure), event.failure.message.trim(), event.failure.hint ? `Hint: ${event.failure.hint}` : ''];
          const level = event.optional ? 'warning' : 'error';
          annotations.push({ level, title: `Step ${event.stepId} failed${event.optional ? ' (optional)' : ''}`, message: failure.filter(Boolean).join('\n'), ...at(event.stepId) });
          flush(event.stepId, 'failed', event.attempt);
          break;
        }
        case 'contract_checked':
          if (!event.passed && event.action === 'warn') {
            annotations.push({
              level: 'warning',
              title: `Step ${event.stepId}: contract ${event.contract} failed`,
              message: event.errors.join('\n') || 'The contract failed.',
              ...at(event.stepId),
            });
          }
          break;
        case 'egress':
          if (!event.allowed) {
            const reason = event.reason ? ` (${event.reason})` : '';
            annotations.push({ level: 'warning', title: `Step ${event.stepId}: egress denied`, message: `${event.host}:${event.port} was refused${reason}.`, ...at(event.stepId) });
          }
          break;
        case 'step_completed':
          flush(event.stepId, 'completed', event.attempt);
          break;
        case 'step_skipped':
          flush(event.stepId, 'skipped');
          break;
        case 'step_cancelled':
          flush(event.stepId, 'cancelled');
          break;
        default:
          break;
      }
    },
    summarize() {
      if (liveStep !== undefined) flush(liveStep, 'unfinished');
      for (const stepId of [...lines.keys()]) flush(stepId, 'unfinished');
      log.resume();
      printAnnotations(annotations);
      annotations.length = 0;
    },
    close() {
      // A run that ended in a fault is reported by the action after this: the runner must read its commands again.
      log.resume();
    },
  };
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
