import { WaveError } from '../../core/errors/errors.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/** What a browser adapter uses: its Chromium and that process's environment. */
const BROWSER_ADAPTER_KEYS = ['type', 'binary', 'env'];

/**
 * Adapter settings the adapter's CLI cannot honour, each at its line: a cursor adapter (by type, or by name without
 * one) with a base_url, which cursor-agent has no option for, so it would be silently ignored; a browser adapter's
 * model and agent settings.
 */
export function adapterErrors(adapters: unknown, locator: Locator): WaveError[] {
  if (!isRecord(adapters)) return [];
  return Object.entries(adapters).flatMap(([name, adapter]) => {
    if (isRecord(adapter) && adapterTypeOf(name, adapter) === 'browser') return browserAdapterErrors(name, adapter, locator);
    if (!isRecord(adapter) || adapter.base_url === undefined || adapterTypeOf(name, adapter) !== 'cursor') return [];
    return [
      new WaveError('manifest_invalid', `adapter \`${name}\` runs cursor-agent, which cannot use a base_url`, {
        location: locator.locate(['adapters', name, 'base_url']),
        hint: "Remove base_url: cursor-agent talks only to Cursor's own API. Give it a key with api_key_env or CURSOR_API_KEY, or log in with `cursor-agent login`.",
      }),
    ];
  });
}

/** A browser adapter's keys that would do nothing: it runs a headless Chromium, no model or agent CLI. */
function browserAdapterErrors(name: string, adapter: Record<string, unknown>, locator: Locator): WaveError[] {
  return Object.keys(adapter)
    .filter((key) => !BROWSER_ADAPTER_KEYS.includes(key))
    .map(
      (key) =>
        new WaveError('manifest_invalid', `adapter \`${name}\` is a browser adapter, so its \`${key}\` would do nothing`, {
          location: locator.locateKey(['adapters', name, key]),
          hint: `Remove \`${key}\`: a browser adapter takes only ${BROWSER_ADAPTER_KEYS.join(', ')} (its Chromium binary and that process's environment).`,
        }),
    );
}
