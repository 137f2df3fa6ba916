// Bundles the compiled CLI (dist/) into dist/bundle/: a cold `wave` loads a few files instead of
// hundreds. Commands stay separate chunks, so each still loads only what it needs.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/main.js'],
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require(); ESM output needs one defined.
  banner: { js: "import { createRequire as __waveCreateRequire } from 'node:module'; const require = __waveCreateRequire(import.meta.url);" },
});
