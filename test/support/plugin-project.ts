import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The plugin adapter and its scripted CLI (test/fixtures/plugin-cli/). */
export const PLUGIN_DIR = fileURLToPath(new URL('../fixtures/plugin-cli/', import.meta.url));

/** A manifest of the plugin adapter, its CLI a copy in the project (so a test can remove it); `runtime` extra runtime lines. */
export const pluginManifest = (runtime = '') => `kind: WaveManifest
metadata: { name: replay }
adapters:
  mycli: { module: "${join(PLUGIN_DIR, 'adapter.mjs')}", binary: ./plugin-cli.mjs, model: scripted-1, env: { PLUGIN_CLI_TOKEN: token-1 } }
personas:
  dev: { adapter: mycli }
runtime:
  timeouts: { process_grace_seconds: 1 }
${runtime}`;

/** Copies the plugin CLI into `project`, where the manifest's `binary` finds it. */
export function addPluginCli(project: string): void {
  copyFileSync(join(PLUGIN_DIR, 'plugin-cli.mjs'), join(project, 'plugin-cli.mjs'));
}
