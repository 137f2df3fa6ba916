import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_BUNDLE, buildActionBundle } from '../../scripts/bundle-action.mjs';
import { ROOT } from '../support/cli.js';

describe('the GitHub Action bundle', () => {
  it('is committed exactly as the build produces it from the sources (run `npm run action` when this fails)', async () => {
    const cwd = process.cwd();
    // esbuild names bundled modules by their path from the working directory, as `npm run action` runs it.
    process.chdir(ROOT);
    try {
      const built = await buildActionBundle();
      expect(readFileSync(join(ROOT, ACTION_BUNDLE), 'utf8') === built, `${ACTION_BUNDLE} is stale: run \`npm run action\``).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });
});
