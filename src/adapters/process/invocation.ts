import { ARGUMENT_MAX_BYTES, oversizedArgument } from '../../process/argument-limit.js';
import type { AdapterRunConfig } from '../types.js';
import type { Failure } from '../../core/errors/failure.js';

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
 * The argv of a process step. `command` runs the command through /bin/sh -c, after `prelude` (the statements that
 * read its large values; its values never appear in either); `prompt` runs the adapter's binary and args, where an
 * argument containing {{prompt}} gets the whole prompt inside that one argument (never split on whitespace); when
 * no argument mentions it, the prompt goes to stdin. A prompt too large for one argument fails before the start.
 */
export function buildProcessInvocation(config: AdapterRunConfig, prelude = ''): ProcessInvocation | { failure: Failure } {
  if (config.execType === 'command') {
    const firstLine = config.prompt.trim().split('\n')[0] ?? '';
    const label = firstLine.length > LABEL_CHARS ? `${firstLine.slice(0, LABEL_CHARS)}…` : firstLine;
    return { command: '/bin/sh', args: ['-c', prelude + config.prompt], label: `command "${label}"` };
  }
  const binary = config.adapter.binary;
  if (!binary) {
    return {
      failure: {
        class: 'spawn_failed',
        message: `adapter "${config.adapter.name}" has no binary to run`,
        hint: `Set adapters.${config.adapter.name}.binary in the manifest, or make the step a command (exec.type: command).`,
      },
    };
  }
  const template = config.adapter.args ?? [];
  const values = { prompt: config.prompt, model: config.model ?? config.adapter.model ?? '' };
  const args = template.map((argument) => fillArgument(argument, values));
  const promptInArgs = template.some((argument) => MENTIONS_PROMPT.test(argument));
  const oversized = promptInArgs ? oversizedArgument(args) : undefined;
  if (oversized) return { failure: promptTooLarge(config, binary, oversized.bytes) };
  return { command: binary, args, label: `"${binary}"`, ...(promptInArgs ? {} : { stdin: config.prompt }) };
}

/** The failure of a prompt that cannot be one argument: execve would refuse it (E2BIG). */
function promptTooLarge(config: AdapterRunConfig, binary: string, bytes: number): Failure {
  const name = config.adapter.name;
  return {
    class: 'spawn_failed',
    message: `the prompt does not fit in one argument of "${binary}": the argument holding {{prompt}} is ${bytes} bytes, and Linux takes at most ${ARGUMENT_MAX_BYTES} bytes (128 KiB) in one argument`,
    hint: `Remove {{prompt}} from adapters.${name}.args so the prompt goes to "${binary}" on stdin, which has no size limit, or make the step's input smaller.`,
  };
}
