#!/usr/bin/env node
'use strict';
// Runs the bundled CLI through a V8 code cache, so a cold start skips compiling what an earlier run compiled.
const { existsSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

// An everyday verb has a bundle of its own, holding that verb alone; a command line naming no verb (`wave --help`,
// `wave -v`) and completion (a shell's Tab asks `wave complete -- <words>`) are answered by the bundle that describes
// every command without holding any; every other command line loads the whole CLI. The verb is the first word that is
// not a flag, as the program itself finds it.
const bundles = join(__dirname, '..', 'dist', 'bundle');
const verb = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const own =
  verb === undefined || verb === 'complete' || verb === 'completion' ? join(bundles, 'described.cjs') : /^[a-z]+$/.test(verb) ? join(bundles, `verb-${verb}.cjs`) : undefined;
const bundle = own !== undefined && existsSync(own) ? own : join(bundles, 'wave.cjs');
const cacheFile = `${bundle}.cache`;
/** The bundle compiled through its cache; the cache is read here only, so the run holds no copy of it afterwards. */
function compile() {
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: this run writes it.
  }
  const script = new Script(wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
  return { script, writeCache: cachedData === undefined || script.cachedDataRejected };
}
const { script, writeCache } = compile();
if (writeCache) {
  // Written at exit, when it also holds every function this run compiled; a read-only install skips it.
  process.once('exit', () => {
    const partial = `${cacheFile}.${process.pid}`;
    try {
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, cacheFile);
    } catch {
      rmSync(partial, { force: true });
    }
  });
}
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, createRequire(bundle), bundleModule, bundle, dirname(bundle));
