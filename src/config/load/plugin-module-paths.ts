import { resolve } from 'node:path';
import type { Manifest } from '../schema/manifest-schema.js';

/** The manifest with each plugin adapter's `module` made absolute against the manifest's folder, as the runners need it. */
export function withAbsoluteModules(manifest: Manifest, manifestDir: string): Manifest {
  const adapters = manifest.adapters;
  if (!adapters || !Object.values(adapters).some((adapter) => adapter.module !== undefined)) return manifest;
  const absolute = Object.fromEntries(
    Object.entries(adapters).map(([name, adapter]) => [name, adapter.module === undefined ? adapter : { ...adapter, module: resolve(manifestDir, adapter.module) }]),
  );
  return { ...manifest, adapters: absolute };
}
