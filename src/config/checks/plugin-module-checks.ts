import { resolve } from 'node:path';
import { definitionProblems, loadPluginModule } from '../../core/adapter-plugin.js';
import { WaveError } from '../../core/errors/errors.js';
import { missingFile } from '../load/file-refs.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

/** Where a plugin module's author reads what the default export must hold. */
const DEFINE_ADAPTER_HINT = 'Default-export defineAdapter({ name, binary, prepare, stream, ... }) from the module, as docs/adapters.md ("Building a new adapter") shows.';

/**
 * Each plugin adapter's `module`, at its line: it exists, loads (its top level is run once, in Wave's process), and its
 * default export is a defineAdapter value with every required field; and the adapter's type, if given, is plugin.
 */
export function pluginModuleErrors(adapters: unknown, manifestDir: string, locator: Locator): WaveError[] {
  if (!isRecord(adapters)) return [];
  return Object.entries(adapters).flatMap(([name, adapter]) => {
    if (!isRecord(adapter) || typeof adapter.module !== 'string') return [];
    const at = locator.locate(['adapters', name, 'module']);
    if (adapter.type !== undefined && adapter.type !== 'plugin') {
      return [
        new WaveError('manifest_invalid', `adapter \`${name}\` names a module, so its type must be plugin, not ${JSON.stringify(adapter.type)}`, {
          location: locator.locate(['adapters', name, 'type']),
          hint: 'Remove `type` (a module selects plugin) or remove `module`.',
        }),
      ];
    }
    const missing = missingFile(adapter.module, manifestDir, `adapter \`${name}\` names module`, at);
    if (missing) return [missing];
    const loaded = loadPluginModule(resolve(manifestDir, adapter.module));
    if (!loaded.ok) {
      return [
        new WaveError('manifest_invalid', `adapter \`${name}\`: module \`${adapter.module}\` cannot be used: ${loaded.problem}`, {
          location: at,
          hint: 'Fix the module so that it loads with `node` on its own (no top-level await), then validate again.',
        }),
      ];
    }
    const problems = definitionProblems(loaded.definition);
    if (problems.length === 0) return [];
    return [
      new WaveError('manifest_invalid', `adapter \`${name}\`: module \`${adapter.module}\` is no adapter: ${problems.join('; ')}`, { location: at, hint: DEFINE_ADAPTER_HINT }),
    ];
  });
}
