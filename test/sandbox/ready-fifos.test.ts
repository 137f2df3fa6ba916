import { existsSync, lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerTag } from '../../src/process/owner-tag.js';
import { FIFO_POOL_PREFIX, ReadyFifos } from '../../src/sandbox/ready-fifos.js';

const pools: ReadyFifos[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(): ReadyFifos {
  const made = new ReadyFifos();
  pools.push(made);
  return made;
}

describe("the FIFOs a sandbox's forwarders say they listen on", () => {
  it('lends a FIFO any uid may open into an attempt folder, takes it back and lends the same pipe again', async () => {
    const fifos = pool();
    const room = mkdtempSync(join(tmpdir(), 'wave-fifo-test-'));
    const first = join(room, 'ready-3128');
    await fifos.lend(first);
    const lent = lstatSync(first);
    expect(lent.isFIFO()).toBe(true);
    expect(lent.mode & 0o777).toBe(0o666);
    await fifos.takeBack(first);
    expect(existsSync(first)).toBe(false);
    const again = join(room, 'ready-8080');
    await fifos.lend(again);
    expect(lstatSync(again).ino).toBe(lent.ino);
  });

  it("keeps its pool in a folder named for this Wave, so a sweep removes a gone Wave's; close removes it", async () => {
    const fifos = pool();
    const room = mkdtempSync(join(tmpdir(), 'wave-fifo-test-'));
    await fifos.lend(join(room, 'ready-1'));
    await fifos.takeBack(join(room, 'ready-1'));
    const folder = readdirSync(tmpdir()).find((name) => name.startsWith(`${FIFO_POOL_PREFIX}${ownerTag()}-`) && readdirSync(join(tmpdir(), name)).length > 0);
    expect(folder).toBeDefined();
    await fifos.close();
    expect(existsSync(join(tmpdir(), folder!))).toBe(false);
  });

  it('makes more when every FIFO is lent, each a pipe of its own', async () => {
    const fifos = pool();
    const room = mkdtempSync(join(tmpdir(), 'wave-fifo-test-'));
    const paths = Array.from({ length: 20 }, (_, i) => join(room, `ready-${i}`));
    await Promise.all(paths.map((path) => fifos.lend(path)));
    const inodes = new Set(paths.map((path) => lstatSync(path).ino));
    expect(inodes.size).toBe(20);
    expect(paths.every((path) => lstatSync(path).isFIFO())).toBe(true);
  });

  it('leaves a FIFO it cannot take back to its folder, and lends another', async () => {
    const fifos = pool();
    const room = mkdtempSync(join(tmpdir(), 'wave-fifo-test-'));
    await fifos.lend(join(room, 'a'));
    await expect(fifos.takeBack(join(room, 'missing'))).resolves.toBeUndefined();
    await fifos.lend(join(room, 'b'));
    expect(lstatSync(join(room, 'b')).isFIFO()).toBe(true);
  });
});
