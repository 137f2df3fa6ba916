import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectArtifacts, type CollectArtifactsOptions } from '../../src/engine/artifacts/artifacts.js';
import { scratchFolder } from '../support/scratch.js';
import { waveErrorOf } from '../support/wave-error.js';

const dir = scratchFolder('wave-artifact-cap-');

/** A workspace holding `files` (name -> bytes), and where its artifacts are stored. */
async function workspaceWith(name: string, files: Record<string, number>): Promise<Pick<CollectArtifactsOptions, 'workspace' | 'destDir'>> {
  const workspace = join(dir, name, 'workspace');
  for (const [file, bytes] of Object.entries(files)) {
    await mkdir(join(workspace, file, '..'), { recursive: true });
    await writeFile(join(workspace, file), Buffer.alloc(bytes, 'a'));
  }
  return { workspace, destDir: join(dir, name, 'artifacts') };
}

const refusal = (options: CollectArtifactsOptions) => waveErrorOf(collectArtifacts(options));

describe("the size of an attempt's artifacts", () => {
  it('refuses the artifact that takes the attempt past the cap, naming both, and stores none of them', async () => {
    const place = await workspaceWith('files', { 'a.txt': 600, 'b.txt': 600 });
    const error = await refusal({ ...place, defs: [{ name: 'a.txt' }, { name: 'b.txt' }], maxBytes: 1000 });
    expect(error.code).toBe('limit_exceeded');
    expect(error.message).toBe("artifact `b.txt`: the attempt's artifacts are larger than 1000 bytes, the most Wave stores per attempt; nothing of it was stored");
    expect(error.hint).toMatch(/smaller artifacts/);
    expect(existsSync(join(place.destDir, 'a.txt'))).toBe(false);
    expect(existsSync(join(place.destDir, 'b.txt'))).toBe(false);
  });

  it('counts every file of a folder artifact', async () => {
    const place = await workspaceWith('folder', { 'out/one.bin': 400, 'out/deep/two.bin': 400 });
    expect((await refusal({ ...place, defs: [{ name: 'out' }], maxBytes: 700 })).code).toBe('limit_exceeded');
    const fits = await collectArtifacts({ ...place, defs: [{ name: 'out' }], maxBytes: 800 });
    expect(fits.saved).toEqual([expect.objectContaining({ name: 'out', bytes: 800 })]);
  });
});
