import type { OutputMode } from '../report/sink.js';

/** Parses a comma-separated list of step ids. */
export function stepList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** --json wins over --output. */
export function outputModeOf(flags: { output: OutputMode; json?: boolean }): OutputMode {
  return flags.json ? 'json' : flags.output;
}
