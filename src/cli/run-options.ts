import { WaveError } from '../errors.js';
import type { OutputMode } from '../report/sink.js';

/** Parses a comma-separated list of step ids. */
export function stepList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** --json wins over --output. */
export function outputModeOf(flags: { output: OutputMode; json?: boolean }): OutputMode {
  return flags.json ? 'json' : flags.output;
}

/** Refuses a step id the pipeline does not have. */
export function requireStep(all: readonly string[], id: string): void {
  if (!all.includes(id)) throw new WaveError('invalid_argument', `no step \`${id}\` in this pipeline`, { hint: `Name one of its steps: ${all.join(', ')}.` });
}

/** The steps to run given --steps and --exclude (shared by run and resume); unknown ids are an error. */
export function selection(all: string[], steps?: string[], exclude?: string[]): Set<string> | undefined {
  for (const id of [...(steps ?? []), ...(exclude ?? [])]) requireStep(all, id);
  if (!steps && !exclude) return undefined;
  return new Set((steps ?? all).filter((id) => !exclude?.includes(id)));
}

/** A commander parser for a flag that takes a positive whole number, refusing anything else by the flag's name. */
export function positiveInteger(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new WaveError('invalid_argument', `${flag} expects a positive whole number, got \`${value}\``);
    return n;
  };
}
