import { WaveError, type SourceLocation } from '../../core/errors/errors.js';

/** Adapters built into Wave (internal/adapter/registry.go) that a Wave manifest uses without declaring, and this version lacks. */
const WAVE_BUILTIN_ADAPTERS: ReadonlyMap<string, string> = new Map([['browser', 'a headless browser the step drives']]);

/**
 * An undeclared adapter name that is one of Wave's built-in adapters: not_supported naming it, rather than an
 * unknown adapter; undefined for any other name.
 */
export function waveBuiltinAdapterError(name: string, who: string, location: SourceLocation): WaveError | undefined {
  const what = WAVE_BUILTIN_ADAPTERS.get(name);
  if (what === undefined) return undefined;
  return new WaveError('not_supported', `${who} names Wave's built-in \`${name}\` adapter (${what}), which is not supported yet`, {
    location,
    hint: `Run the step on an adapter the manifest declares, or declare an adapter named \`${name}\` (a process adapter) under \`adapters\`.`,
  });
}
