import { describe, expect, it } from 'vitest';
import { spawnFailure } from '../../src/process/spawn-failure.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { sandboxError } from '../../src/sandbox/attempt-room.js';

describe('a sandbox that could not be prepared', () => {
  it('says the errno under an explaining error in words, and hints at what to do about it', () => {
    const listen: NodeJS.ErrnoException = Object.assign(new Error('listen EMFILE: too many open files /tmp/wave-sbx-1/proxy.sock'), {
      code: 'EMFILE',
      syscall: 'listen',
      address: '/tmp/wave-sbx-1/proxy.sock',
    });
    const wrapped = new WaveError('sandbox_unavailable', `The egress proxy cannot listen in /tmp/wave-sbx-1: ${listen.message}`, { cause: listen });
    const error = sandboxError(wrapped);
    expect(error.message).toBe('the sandbox could not be prepared: cannot listen /tmp/wave-sbx-1/proxy.sock: too many open files (EMFILE)');
    expect(error.cause).toBe(listen);
    const failure = spawnFailure(error, { command: 'claude', cwd: '/tmp', env: {} });
    expect(failure.class).toBe('sandbox_unavailable');
    expect(failure.hint).toContain('ulimit -n');
  });
});
