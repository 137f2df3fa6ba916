import type { RunEvent } from '../events.js';
import { transcriptEntries, type TranscriptEntry } from '../state/thread/attempt-transcript.js';
import { painter, type Paint } from './color.js';
import { formatClock, formatCost, formatDuration, formatTokens } from './format.js';
import { hasTokens } from '../core/models/tokens.js';
import { safeLine } from '../core/terminal-safe.js';
import { failureDetail } from './describe.js';
import { describeEvent } from './text.js';

/** Lines of a tool's output shown under its call; the raw stream (`wave logs --raw`) holds all of it. */
const TOOL_OUTPUT_LINES = 8;
/** Characters of a tool's output shown under its call. */
const TOOL_OUTPUT_CHARS = 800;

export interface StepTranscriptOptions {
  /** Only this attempt; every attempt when absent. */
  attempt?: number;
  color?: boolean;
  /** The step may still be running: a message still streaming in is held back until it is whole (`--follow`). */
  live?: boolean;
}

type StepEvent = Extract<RunEvent, { type: 'step_event' }>;

/**
 * A step's attempts as a readable conversation, from the run's events: each attempt headed by its adapter and model,
 * the agent's messages, its tool calls with their targets and their output (cut), errors, retries, contract checks
 * and changed files, closed by the attempt's outcome, time, tokens and cost. Lines only ever grow as events arrive.
 */
export function renderStepTranscript(events: readonly RunEvent[], stepId: string, options: StepTranscriptOptions = {}): string[] {
  const paint = painter(options.color ?? false);
  const lines: string[] = [];
  let attempt = 0;
  let stream: StepEvent[] = [];
  const finished = new Set<number>();
  const flush = (whole: boolean) => {
    if (!stream.length) return;
    const entries = transcriptEntries(stream, stepId, attempt);
    // A message may still be streaming in: shown once something follows it.
    if (!whole && entries.at(-1)?.kind === 'assistant') entries.pop();
    lines.push(...entryLines(entries, paint));
    stream = [];
  };
  for (const event of events) {
    if (!('stepId' in event) || event.stepId !== stepId || event.type === 'step_tokens') continue;
    if (event.type === 'step_started') attempt = event.attempt;
    if (options.attempt !== undefined && ('attempt' in event ? event.attempt : attempt) !== options.attempt) continue;
    if (event.type === 'step_event') {
      stream.push(event);
      continue;
    }
    if (event.type === 'egress' && event.allowed) continue;
    flush(true);
    if (event.type === 'attempt_finished') finished.add(event.attempt);
    // A step that failed before any attempt ended (its workspace, say) still says why.
    if (event.type === 'step_failed' && finished.has(event.attempt)) continue;
    lines.push(...eventLines(event, paint));
  }
  flush(!options.live);
  return lines;
}

/** The lines of a step-level event: an attempt's head and end, a retry, and the text sink's line for the rest. */
function eventLines(event: RunEvent, paint: Paint): string[] {
  switch (event.type) {
    case 'step_started':
      return [paint('bold', `── attempt ${event.attempt} · ${event.adapter}${event.model ? ` (${event.model})` : ''} · started ${formatClock(event.ts)}`)];
    case 'attempt_finished': {
      const cells = [`${event.passed ? 'passed' : 'failed'} in ${formatDuration(event.durationMs)}`];
      if (hasTokens(event.tokens)) cells.push(formatTokens(event.tokens));
      if (event.costUsd !== undefined) cells.push(formatCost(event.costUsd));
      const head = paint(event.passed ? 'green' : 'red', `── attempt ${event.attempt} ${cells.join(' · ')}`);
      return event.failure ? [head, ...failureDetail(event.failure).map((line, i) => `${i ? '    ' : '  '}${paint('red', line)}`)] : [head];
    }
    case 'step_retrying':
      // The attempt's end above says why.
      return [`  ${paint('yellow', `↻ retrying in ${formatDuration(event.delayMs)}`)}`];
    case 'step_completed':
      return [];
    default: {
      const text = describeEvent(event, () => '');
      return text === undefined
        ? []
        : text
            .trimStart()
            .split('\n')
            .map((line) => `  ${paint('gray', line)}`);
    }
  }
}

/** A conversation's entries as lines: who said what, each tool call followed by what it returned. */
function entryLines(entries: readonly TranscriptEntry[], paint: Paint): string[] {
  const lines: string[] = [];
  const calls = new Map<string, string>();
  let previous: TranscriptEntry | undefined;
  for (const entry of entries) {
    switch (entry.kind) {
      case 'assistant':
        lines.push(...labelled(paint('cyan', 'assistant'), entry.text));
        break;
      case 'answer':
        // Usually the last message again; shown only when it says something else.
        if (!(previous?.kind === 'assistant' && previous.text.trim() === entry.text.trim())) lines.push(...labelled(paint('cyan', 'answer'), entry.text));
        break;
      case 'tool_call': {
        const call = safeLine(`${entry.name}${entry.target ? ` ${entry.target}` : ''}`);
        if (entry.id) calls.set(entry.id, call);
        lines.push(`  ${paint('magenta', 'tool')}  ${call}`);
        break;
      }
      case 'tool_result': {
        // Calls made together are answered together: a result not right after its call names the call.
        const right = previous?.kind === 'tool_call' && (previous.id === undefined || previous.id === entry.id);
        const of = !right && entry.id && calls.has(entry.id) ? `(${calls.get(entry.id)}) ` : '';
        const mark = entry.isError ? paint('red', '    ✗') : paint('gray', '    →');
        const body = cutOutput(entry.content);
        const shown = body.length ? body : [entry.isError ? 'failed' : '(no output)'];
        lines.push(`${mark} ${of}${entry.isError ? paint('red', shown[0]!) : shown[0]}`, ...shown.slice(1).map((line) => `      ${entry.isError ? paint('red', line) : line}`));
        break;
      }
      case 'retry':
        lines.push(`  ${paint('yellow', `model request retried${entry.status ? ` (HTTP ${entry.status})` : ''}${entry.message ? `: ${safeLine(entry.message)}` : ''}`)}`);
        break;
      case 'error':
        lines.push(...labelled(paint('red', 'error'), entry.message));
        break;
    }
    previous = entry;
  }
  return lines;
}

/** `label  first line`, the following lines indented under it. */
function labelled(label: string, text: string): string[] {
  const [first = '', ...rest] = text.trim().split(/\r?\n/);
  return [`  ${label}  ${first}`, ...rest.map((line) => (line.trim() ? `    ${line}` : ''))];
}

/** A tool's output cut to TOOL_OUTPUT_LINES lines and TOOL_OUTPUT_CHARS characters, with a note of what was left out. */
function cutOutput(content: string): string[] {
  const all = content.trim() ? content.trim().split(/\r?\n/) : [];
  const lines: string[] = [];
  let room = TOOL_OUTPUT_CHARS;
  for (const line of all.slice(0, TOOL_OUTPUT_LINES)) {
    if (room <= 0) break;
    lines.push(line.length > room ? `${line.slice(0, room)}…` : line);
    room -= line.length;
  }
  const left = all.length - lines.length;
  if (left > 0) lines.push(`… ${left} more line${left === 1 ? '' : 's'}`);
  return lines;
}
