import type { AdapterRunConfig } from '../types.js';

/** What to start for one attempt: a program, its exact argv, and what goes to stdin. */
export interface ProcessInvocation {
  command: string;
  args: string[];
  /** The prompt, when no argument takes it; stdin is closed after it. */
  stdin?: string;
  /** How messages name this process. */
  label: string;
}

const PLACEHOLDER = /\{\{\s*(prompt|model)\s*\}\}/g;
const MENTIONS_PROMPT = /\{\{\s*prompt\s*\}\}/;
const LABEL_CHARS = 80;

/** Fills {{prompt}} and {{model}} in one pass, so a prompt that contains "{{model}}" stays as written. */
export function fillArgument(template: string, values: { prompt: string; model: string }): string {
  return template.replace(PLACEHOLDER, (_match, name: 'prompt' | 'model') => values[name]);
}

/**
 * The argv of a process step. `command` runs the prompt through /bin/sh -c; `prompt` runs the adapter's
 * binary and args, where an argument containing {{prompt}} gets the whole prompt inside that one argument
 * (never split on whitespace); when no argument mentions it, the prompt goes to stdin.
 */
export function buildProcessInvocation(config: AdapterRunConfig): ProcessInvocation | { missingBinary: true } {
  if (config.execType === 'command') {
    const firstLine = config.prompt.trim().split('\n')[0] ?? '';
    const label = firstLine.length > LABEL_CHARS ? `${firstLine.slice(0, LABEL_CHARS)}…` : firstLine;
    return { command: '/bin/sh', args: ['-c', config.prompt], label: `command "${label}"` };
  }
  const binary = config.adapter.binary;
  if (!binary) return { missingBinary: true };
  const template = config.adapter.args ?? [];
  const values = { prompt: config.prompt, model: config.model ?? config.adapter.model ?? '' };
  const args = template.map((argument) => fillArgument(argument, values));
  const promptInArgs = template.some((argument) => MENTIONS_PROMPT.test(argument));
  return { command: binary, args, label: `"${binary}"`, ...(promptInArgs ? {} : { stdin: config.prompt }) };
}
