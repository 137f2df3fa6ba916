import type { Command } from 'commander';
import { describeInput } from '../config/load/describe-input.js';
import { isRecord } from '../config/load/value-path.js';
import { readPipelineAsWritten } from './pipeline-as-written.js';

/**
 * The end of `wave run <pipeline> --help`: what the named pipeline takes (its input's type, description, example and
 * default). Help runs before any check (commander prints it as it parses, synchronously), so the file is read as
 * written; one that cannot be read says why in a line, and plain `wave run --help` adds nothing.
 */
export function pipelineInputHelp({ command }: { command: Command }): string {
  const name = command.args.find((arg) => !arg.startsWith('-'));
  if (name === undefined) return '';
  try {
    const root = readPipelineAsWritten(name, process.cwd(), command.opts<{ manifest?: string }>().manifest);
    return ['', `Input of ${name}:`, ...describeInput(isRecord(root) ? root.input : undefined)].join('\n');
  } catch (error) {
    return `\nThe input of ${name} cannot be shown: ${(error as Error).message}`;
  }
}
