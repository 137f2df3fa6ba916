import { WaveError } from '../core/errors/errors.js';
import type { OutputMode } from '../report/sink.js';

/** --json wins over --output. */
export function outputModeOf(flags: { output: OutputMode; json?: boolean }): OutputMode {
  return flags.json ? 'json' : flags.output;
}

/** A commander parser for a flag that takes a positive whole number, refusing anything else by the flag's name. */
export function positiveInteger(flag: string, minimum = 1, why = ''): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new WaveError('invalid_argument', `${flag} expects a positive whole number, got \`${value}\``);
    if (n < minimum) throw new WaveError('invalid_argument', `${flag} expects at least ${minimum}, got \`${value}\`${why ? `: ${why}` : ''}`);
    return n;
  };
}
