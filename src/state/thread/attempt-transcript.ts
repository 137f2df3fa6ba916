import { quotedBlock, safeLine } from '../../core/terminal-safe.js';
import type { RunEvent } from '../../events.js';

/** How much of a failed tool call's output a transcript keeps. */
const TOOL_ERROR_CHARS = 500;

/** One entry of an attempt's conversation, in the order the agent's stream gave them. */
export type TranscriptEntry =
  | { kind: 'assistant'; text: string }
  | { kind: 'tool_call'; name: string; target?: string; id?: string }
  | { kind: 'tool_result'; isError: boolean; content: string; id?: string }
  /** The CLI retried a model request (an overloaded or rate-limited API). */
  | { kind: 'retry'; status?: number; message?: string }
  /** An error the stream reported (an API error, a refused tool). */
  | { kind: 'error'; message: string }
  /** The agent's final answer, as its result event gave it. */
  | { kind: 'answer'; text: string };

/**
 * One attempt's conversation from its stored stream events: the agent's messages (the pieces of a streamed message
 * joined), its tool calls with their targets and their results, retries, errors and its final answer. Thinking,
 * usage and session events are left out.
 */
export function transcriptEntries(events: readonly RunEvent[], stepId: string, attempt: number): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const event of events) {
    if (event.type !== 'step_event' || event.stepId !== stepId || event.attempt !== attempt) continue;
    const e = event.event;
    const last = entries.at(-1);
    if (e.kind === 'text') {
      // CLIs that stream a message in pieces (Gemini, an HTTP model) send one text event per piece.
      if (last?.kind === 'assistant') last.text += e.text;
      else entries.push({ kind: 'assistant', text: e.text });
    } else if (e.kind === 'tool_use') entries.push({ kind: 'tool_call', name: e.name, ...(e.target ? { target: e.target } : {}), ...(e.id ? { id: e.id } : {}) });
    else if (e.kind === 'tool_result') entries.push({ kind: 'tool_result', isError: e.isError, content: e.content ?? '', ...(e.id ? { id: e.id } : {}) });
    else if (e.kind === 'retry') entries.push({ kind: 'retry', ...(e.status !== undefined ? { status: e.status } : {}), ...(e.message ? { message: e.message } : {}) });
    else if (e.kind === 'error') entries.push({ kind: 'error', message: e.message });
    else if (e.kind === 'system' && e.subtype === 'permission_denied') entries.push({ kind: 'error', message: `permission denied: ${e.message ?? ''}` });
    else if (e.kind === 'result' && e.text?.trim()) entries.push({ kind: 'answer', text: e.text });
  }
  return entries.filter((entry) => entry.kind !== 'assistant' || entry.text.trim());
}

/**
 * One attempt's conversation as plain text, for a thread's later steps: the agent's messages, its tool calls with
 * their targets, and the tool calls that failed. Successful tool output (file contents, listings) is left out. Each
 * entry's label starts its line; what the agent wrote follows it on that line, or quoted below it when it has several.
 */
export function attemptTranscript(events: readonly RunEvent[], stepId: string, attempt: number): string {
  const lines: string[] = [];
  for (const entry of transcriptEntries(events, stepId, attempt)) {
    if (entry.kind === 'assistant') lines.push(labelled('assistant', entry.text.trim()));
    else if (entry.kind === 'tool_call') lines.push(`tool call: ${safeLine(`${entry.name}${entry.target ? ` ${entry.target}` : ''}`)}`);
    else if (entry.kind === 'tool_result' && entry.isError) lines.push(labelled('tool error', entry.content.trim().slice(0, TOOL_ERROR_CHARS)));
    else if (entry.kind === 'retry') lines.push(`model request retried${entry.status ? ` (HTTP ${entry.status})` : ''}${entry.message ? `: ${safeLine(entry.message)}` : ''}`);
  }
  return lines.join('\n');
}

/** `label: text` for a text of one line, else `label:` and the text quoted below it: no line of it starts a line of its own. */
function labelled(label: string, text: string): string {
  return text.includes('\n') ? `${label}:\n${quotedBlock(text)}` : `${label}: ${safeLine(text)}`;
}
