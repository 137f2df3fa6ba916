import type { RunEvent } from '../events.js';

/** How much of a failed tool call's output a transcript keeps. */
const TOOL_ERROR_CHARS = 500;

/**
 * One attempt's conversation as plain text, from its stored stream events: the agent's messages, its tool calls with
 * their targets, and the tool calls that failed. Successful tool output (file contents, listings) is left out.
 */
export function attemptTranscript(events: readonly RunEvent[], stepId: string, attempt: number): string {
  const lines: string[] = [];
  for (const event of events) {
    if (event.type !== 'step_event' || event.stepId !== stepId || event.attempt !== attempt) continue;
    const e = event.event;
    if (e.kind === 'text' && e.text.trim()) lines.push(`assistant: ${e.text.trim()}`);
    else if (e.kind === 'tool_use') lines.push(`tool call: ${e.name}${e.target ? ` ${e.target}` : ''}`);
    else if (e.kind === 'tool_result' && e.isError) lines.push(`tool error: ${(e.content ?? '').trim().slice(0, TOOL_ERROR_CHARS)}`);
    else if (e.kind === 'retry') lines.push(`model request retried${e.status ? ` (HTTP ${e.status})` : ''}${e.message ? `: ${e.message}` : ''}`);
  }
  return lines.join('\n');
}
