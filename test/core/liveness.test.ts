import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isGroupAlive, isProcessAlive } from '../../src/process/liveness.js';
import { waitFor } from '../support/wait.js';

describe('group liveness', () => {
  it('counts a group alive while a live process is in it, and its zombies as dead', async () => {
    // The leader is `sleep 300` exec'd over a shell whose short child it never reaps: a zombie of the same group.
    const leader = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 300'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const [chunk] = (await once(leader.stdout, 'data')) as [Buffer];
    const zombie = Number(chunk.toString().trim());
    await waitFor(() => /\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8')), 'the child to become a zombie', 5_000);
    expect(isProcessAlive(zombie)).toBe(false);
    expect(await isGroupAlive(leader.pid!)).toBe(true);
    leader.kill('SIGKILL');
    await once(leader, 'exit');
    // Its leader reaped, the group holds at most the zombie (where PID 1 does not reap it): dead.
    expect(await isGroupAlive(leader.pid!)).toBe(false);
  });

  it('finds no group for a pgid nothing uses', async () => {
    expect(await isGroupAlive(2 ** 22 + 7)).toBe(false);
  });
});
