import { WaveError } from '../../core/errors/errors.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/**
 * Adapter settings the adapter's CLI cannot honour, each at its line: a cursor adapter (by type, or by name without
 * one) with a base_url, which cursor-agent has no option for, so it would be silently ignored.
 */
export function adapterErrors(adapters: unknown, locator: Locator): WaveError[] {
  if (!isRecord(adapters)) return [];
  return Object.entries(adapters).flatMap(([name, adapter]) => {
    if (!isRecord(adapter) || adapter.base_url === undefined || adapterTypeOf(name, adapter) !== 'cursor') return [];
    return [
      new WaveError('manifest_invalid', `adapter \`${name}\` runs cursor-agent, which cannot use a base_url`, {
        location: locator.locate(['adapters', name, 'base_url']),
        hint: "Remove base_url: cursor-agent talks only to Cursor's own API. Give it a key with api_key_env or CURSOR_API_KEY, or log in with `cursor-agent login`.",
      }),
    ];
  });
}
