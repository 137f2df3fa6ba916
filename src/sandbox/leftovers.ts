import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerIsGone } from '../process/owner-tag.js';
import { ROOM_PREFIX } from './attempt-room.js';
import { FIFO_POOL_PREFIX } from './ready-fifos.js';
import { sweepOrphanedJails } from '../process/cgroup-limits.js';

/**
 * Removes what Wave processes now gone (killed outright, crashed) left on this machine: their attempts' temp folders
 * (which name the run's HOME in a passwd file), their sandboxes' FIFO pools and their cgroups, with whatever still runs in them. A live Wave's are
 * never touched: each name carries its maker's pid and start time. Never rejects.
 */
export async function sweepLeftovers(): Promise<void> {
  const temp = tmpdir();
  const entries = await readdir(temp, { withFileTypes: true }).catch(() => []);
  // Folders only: a symlink of that name is not Wave's, and is left alone.
  const gone = entries.filter((entry) => entry.isDirectory() && (ownerIsGone(entry.name, ROOM_PREFIX) || ownerIsGone(entry.name, FIFO_POOL_PREFIX)));
  await Promise.all(gone.map((entry) => rm(join(temp, entry.name), { recursive: true, force: true }).catch(() => undefined)));
  await sweepOrphanedJails();
}
