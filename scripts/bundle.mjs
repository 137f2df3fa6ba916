// Bundles the compiled CLI (dist/) into one CommonJS file, dist/bundle/wave.cjs, and warms its V8 code
// cache: a cold `wave` then reads two files and skips compiling what the warm-up already compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/bundle/wave.cjs';

// A stale cache must never meet a new bundle: V8 only checks the source's length.
rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: OUT,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS has no import.meta: the bundle's own URL stands in for it.
  define: { 'import.meta.url': '__waveBundleUrl' },
  banner: { js: "const __waveBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// bin/wave.cjs writes the cache when a run finds none: let validating the shipped files be that run.
spawnSync(process.execPath, ['bin/wave.cjs', 'validate'], { stdio: 'ignore' });
if (!existsSync(`${OUT}.cache`)) throw new Error(`the warm-up run wrote no ${OUT}.cache`);
