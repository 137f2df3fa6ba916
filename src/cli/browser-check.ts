import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { execa } from 'execa';
import { CHROMIUM_INSTALL_HINT, findChromium } from '../adapters/browser/chromium.js';
import { listPipelineFiles, type Located } from '../config/load/load.js';
import { adapterTypeOf } from '../config/schema/adapter-type.js';
import type { Manifest } from '../config/schema/manifest-schema.js';

/** What doctor found about the browser that browser steps drive. */
export interface BrowserCheck {
  /** The binary asked for, or the names searched. */
  binary: string;
  path?: string;
  version?: string;
  /** Found; when something uses it, also answering `--version` with its driver loading. */
  usable: boolean;
  /** Who needs it: the manifest's browser adapter or the pipelines with a browser step; empty when nothing does. */
  usedBy: string[];
  problem?: string;
  hint?: string;
}

// A step names the built-in adapter by this line; a full parse of every pipeline is not needed to tell.
const BROWSER_STEP = /^\s*-?\s*adapter:\s*["']?browser["']?\s*(#.*)?$/m;

/** Finds the Chromium browser steps drive (the manifest's browser adapter's binary, WAVE_CHROMIUM, or the system's), and who uses it. */
export async function checkBrowser(manifest: Located<Manifest>, env: Record<string, string | undefined>): Promise<BrowserCheck> {
  const declared = Object.entries(manifest.value.adapters ?? {}).find(([name, adapter]) => adapterTypeOf(name, adapter) === 'browser');
  const pipelines = listPipelineFiles(manifest.dir).filter((file) => BROWSER_STEP.test(readText(file)));
  const usedBy = [...(declared ? [`adapters.${declared[0]}`] : []), ...pipelines.map((file) => relative(manifest.dir, file))];
  const found = findChromium(declared?.[1].binary, env, manifest.dir);
  if (!found.path) return { binary: found.wanted, usable: false, usedBy, problem: `no Chromium found (looked for ${found.wanted})`, hint: CHROMIUM_INSTALL_HINT };
  // Starting Chromium and loading its driver take seconds: only a project with browser steps pays for them.
  if (!usedBy.length) return { binary: found.wanted, path: found.path, usable: true, usedBy };
  const result = await execa(found.path, ['--version'], { reject: false, timeout: 20_000, stdin: 'ignore' });
  const version = String(result.stdout).trim().split('\n')[0];
  if (result.exitCode !== 0 || !version)
    return { binary: found.wanted, path: found.path, usable: false, usedBy, problem: `"${found.path} --version" failed`, hint: CHROMIUM_INSTALL_HINT };
  const driver = await import('../adapters/browser/driver.js').then(
    () => true,
    () => false,
  );
  if (!driver) {
    return {
      binary: found.wanted,
      path: found.path,
      version,
      usable: false,
      usedBy,
      problem: 'the browser driver playwright-core is not installed',
      hint: 'Install Wave with its dependencies (npm install).',
    };
  }
  return { binary: found.wanted, path: found.path, version, usable: true, usedBy };
}

/** The doctor's browser line: ok, FAIL when something uses a browser that is missing, else `no` (nothing needs it). */
export function browserReport(check: BrowserCheck): string {
  const status = check.usable ? 'ok  ' : check.usedBy.length ? 'FAIL' : 'no  ';
  const where = check.path ? `  binary: ${check.path}${check.version ? `  version: ${check.version}` : ''}` : '';
  const used = check.usedBy.length ? `  used by: ${check.usedBy.join(', ')}` : '';
  const notes = [...(check.problem ? [`  problem: ${check.problem}`] : []), ...(check.hint ? [`  hint: ${check.hint}`] : [])];
  return `${[`${status} browser (chromium, for browser steps)`, where, used, ...notes].filter(Boolean).join('\n')}\n`;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
