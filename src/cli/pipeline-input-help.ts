import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describeInput } from '../config/describe-input.js';
import { findProjectRoot, resolvePipelinePath } from '../config/paths.js';
import { isRecord } from '../config/value-path.js';
import { MAX_ALIAS_COUNT, parseYamlSource } from '../config/yaml-source.js';

/**
 * The end of `wave run <pipeline> --help`: what the named pipeline takes (its input's type, description, example and
 * default). Help runs before any check (commander prints it as it parses, synchronously), so the file is read as
 * written; one that cannot be read says why in a line, and plain `wave run --help` adds nothing.
 */
export function pipelineInputHelp({ command }: { command: Command }): string {
  const name = command.args.find((arg) => !arg.startsWith('-'));
  if (name === undefined) return '';
  try {
    const cwd = process.cwd();
    const file = resolvePipelinePath(name, findProjectRoot(cwd, command.opts<{ manifest?: string }>().manifest), cwd);
    const root: unknown = parseYamlSource(readFileSync(file, 'utf8'), file).doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return ['', `Input of ${name}:`, ...describeInput(isRecord(root) ? root.input : undefined)].join('\n');
  } catch (error) {
    return `\nThe input of ${name} cannot be shown: ${(error as Error).message}`;
  }
}
