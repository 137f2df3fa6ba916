import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

// A copy of the installed CLI (bin/, the bundle, package.json), so each test can damage its cache freely.
let copy: string;
let cacheFile: string;
beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'wave-code-cache-'));
  for (const part of ['bin', 'package.json', join('dist', 'bundle')]) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  // `wave --version` names no verb: the bundle describing every command answers it.
  cacheFile = join(copy, 'dist', 'bundle', 'described.cjs.cache');
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

const version = (): string => execFileSync(process.execPath, [join(copy, 'bin', 'wave.cjs'), '--version'], { encoding: 'utf8' }).trim();
const expectedVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the V8 code cache of the bundled CLI', () => {
  it('is written by the build', () => {
    expect(statSync(join(ROOT, 'dist', 'bundle', 'wave.cjs.cache')).size).toBeGreaterThan(100_000);
  });

  it('is written by the first run that finds none', () => {
    rmSync(cacheFile);
    expect(version()).toBe(expectedVersion);
    expect(statSync(cacheFile).size).toBeGreaterThan(100_000);
  });

  it('is replaced when it is garbage, and the run goes on as if it were absent', () => {
    writeFileSync(cacheFile, 'not a code cache');
    expect(version()).toBe(expectedVersion);
    expect(readFileSync(cacheFile).subarray(0, 16).toString()).not.toBe('not a code cache');
    expect(version()).toBe(expectedVersion);
  });

  it('never stops a run when it can be neither read nor written', () => {
    // A folder in its place fails both, even for root (mode bits would not stop root).
    rmSync(cacheFile);
    mkdirSync(cacheFile);
    expect(version()).toBe(expectedVersion);
    expect(statSync(cacheFile).isDirectory()).toBe(true);
    expect(readdirSync(join(copy, 'dist', 'bundle')).filter((name) => name.includes('.cache.'))).toEqual([]);
  });

  it('is one per bundle: an everyday verb runs from its own, which holds that verb alone', () => {
    const bundles = join(copy, 'dist', 'bundle');
    rmSync(join(bundles, 'verb-runs.cjs.cache'));
    // Without the whole CLI's bundle, only the verbs with their own still run.
    rmSync(join(bundles, 'wave.cjs'));
    const empty = mkdtempSync(join(tmpdir(), 'wave-code-cache-runs-'));
    try {
      expect(execFileSync(process.execPath, [join(copy, 'bin', 'wave.cjs'), 'runs'], { cwd: empty, encoding: 'utf8' })).toMatch(/no runs/i);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    expect(statSync(join(bundles, 'verb-runs.cjs.cache')).size).toBeGreaterThan(100_000);
    expect(statSync(join(bundles, 'verb-runs.cjs')).size).toBeLessThan(statSync(join(ROOT, 'dist', 'bundle', 'wave.cjs')).size / 2);
    expect(() => execFileSync(process.execPath, [join(copy, 'bin', 'wave.cjs'), 'run', 'x'], { cwd: copy, stdio: 'pipe' })).toThrow(/wave\.cjs/);
  });
});
