// Bundles the GitHub Action's entry (src/action/main.ts) into action/index.cjs, which is committed: a workflow's
// `uses: <owner>/<repo>@<ref>` runs it straight from the checkout, with no install step.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { englishOnlyZod, requiredOtlpTransport } from './esbuild-plugins.mjs';
import { notShipped } from './bundle-dockerode.mjs';

export const ACTION_BUNDLE = 'action/index.cjs';

/** The esbuild options of the bundle; test/github/bundle.test.ts builds with them to check the committed file. */
export const actionBuildOptions = {
  entryPoints: ['src/action/main.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Byte-for-byte the same on every machine: no comments carrying paths, no source map.
  legalComments: 'none',
  // dockerode is inlined without what Wave never asks of it (ssh2's native addons, BuildKit sessions): a runner has no node_modules.
  plugins: [englishOnlyZod, notShipped, requiredOtlpTransport],
  // The browser driver reads its own files beside it: a browser step in the Action needs it installed (npm install).
  external: ['playwright-core'],
  // CommonJS has no import.meta: the bundle's own URL stands in for it.
  define: { 'import.meta.url': '__waveBundleUrl' },
  banner: { js: "const __waveBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  write: false,
};

/** The bundle's text, as the build produces it now. */
export async function buildActionBundle() {
  const result = await build(actionBuildOptions);
  return result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ACTION_BUNDLE, await buildActionBundle());
}
