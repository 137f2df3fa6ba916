import { execFile } from 'node:child_process';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ownerTag } from '../process/owner-tag.js';

const run = promisify(execFile);
/** The pool's folder is `wave-fifos-<pid>-<start time>-XXXXXX`: its maker, so a sweep removes only a gone Wave's. */
export const FIFO_POOL_PREFIX = 'wave-fifos-';
/** FIFOs made at once: one mkfifo costs a process start, a rename almost nothing. */
const BATCH = 8;

/**
 * The named pipes a sandbox's forwarders say they listen on, so the entry script waits without polling: made a batch
 * at a time by one mkfifo (Node cannot make one) in a folder of their own, lent to one attempt at a time by renaming
 * into its folder, and taken back when it ends. A pipe keeps nothing once no process has it open, so a lent one
 * carries nothing from one attempt to the next.
 */
export class ReadyFifos {
  private folder: Promise<string> | undefined;
  private readonly free: string[] = [];
  private named = 0;
  private making: Promise<void> | undefined;

  /** Moves a FIFO of the pool to `to`, a new name in an attempt's folder. */
  async lend(to: string): Promise<void> {
    while (this.free.length === 0) await (this.making ??= this.makeBatch().finally(() => (this.making = undefined)));
    await rename(this.free.pop()!, to);
  }

  /** Takes back a lent FIFO from `at`; one that cannot be taken back goes with its attempt's folder. Never rejects. */
  async takeBack(at: string): Promise<void> {
    const home = await this.folder?.catch(() => undefined);
    if (!home) return;
    const name = this.nextName(home);
    await rename(at, name).then(
      () => void this.free.push(name),
      () => undefined,
    );
  }

  /** Removes the pool's folder; never rejects. */
  async close(): Promise<void> {
    const home = await this.folder?.catch(() => undefined);
    if (home) await rm(home, { recursive: true, force: true }).catch(() => undefined);
    this.folder = undefined;
    this.free.length = 0;
  }

  private async makeBatch(): Promise<void> {
    const home = await (this.folder ??= mkdtemp(join(tmpdir(), `${FIFO_POOL_PREFIX}${ownerTag()}-`)));
    const names = Array.from({ length: BATCH }, () => this.nextName(home));
    // Any uid may open them: the sandbox's user is not always Wave's; the attempt's folder limits who reaches one.
    await run('mkfifo', ['-m', '0666', '--', ...names], { env: { PATH: '/usr/bin:/bin' } });
    this.free.push(...names);
  }

  private nextName(home: string): string {
    return join(home, `ready-${++this.named}`);
  }
}
