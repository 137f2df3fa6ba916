import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAYWRIGHT_DISABLED_FEATURES, QUIET_CHROMIUM } from '../../src/adapters/browser/chromium-switches.js';

/** The features the installed playwright-core turns off at launch, read from its own source. */
function installedPlaywrightDisabledFeatures(): string[] {
  const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
  const source = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(source)?.[1] ?? '';
  return [...list.matchAll(/^\s*"([A-Za-z0-9]+)",?$/gm)].map((m) => m[1]!);
}

describe("the browser adapter's Chromium switches", () => {
  it('keep every feature the pinned playwright-core turns off, since Chromium reads only the last --disable-features', () => {
    const installed = installedPlaywrightDisabledFeatures();
    expect(installed.length).toBeGreaterThan(5);
    expect(new Set(PLAYWRIGHT_DISABLED_FEATURES)).toEqual(new Set(installed));
    const disabled = QUIET_CHROMIUM.filter((s) => s.startsWith('--disable-features='));
    expect(disabled).toHaveLength(1);
    const ours = disabled[0]!.slice('--disable-features='.length).split(',');
    for (const feature of installed) expect(ours).toContain(feature);
    expect(ours).toContain('AutofillServerCommunication');
  });
});
