import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS } from '../../src/sandbox/defaults.js';
import { checkBubblewrap } from '../../src/sandbox/preflight.js';
import { backendAvailable } from '../support/sandbox.js';
import { waveErrorOf } from '../support/wave-error.js';

describe.skipIf(!backendAvailable('bubblewrap'))("bubblewrap's check before a run", () => {
  it('finds bwrap able to make a sandbox here, and says whether the limits are enforced', async () => {
    const ready = await checkBubblewrap(process.env, DEFAULT_SANDBOX_LIMITS);
    expect(ready.binary).toMatch(/\/bwrap$/);
    // Either Wave can make cgroups here, or the warning says the limits are not enforced: never both, never neither.
    expect(ready.enforceLimits).toBe(ready.warning === undefined);
  });

  it('stops with sandbox_unavailable, what bwrap said and a hint when bwrap cannot make a sandbox', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'wave-fake-bwrap-'));
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const error = await waveErrorOf(checkBubblewrap({ PATH: `${bin}:/usr/bin:/bin` }, DEFAULT_SANDBOX_LIMITS));
    expect(error.code).toBe('sandbox_unavailable');
    expect(error.message).toBe('bubblewrap cannot create a sandbox here: bwrap: No permissions to create new namespace');
    expect(error.hint).toMatch(/user namespaces/);
  });
});
