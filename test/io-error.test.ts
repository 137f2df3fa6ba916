import { describe, expect, it } from 'vitest';
import { ioError, ioErrorOf, isDiskFault, isFileSystemError } from '../src/io-error.js';

function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: something, ${syscall} '${path}'`), { code, syscall, path });
}

describe('io errors', () => {
  it.each([
    ['ENOSPC', 'no space left on the device (ENOSPC)', 'Free space on the disk holding /runs/r, then `wave resume r` finishes the run.'],
    ['EROFS', 'the file system is read-only (EROFS)', 'Make /runs/r writable (its file system is mounted read-only), then `wave resume r` finishes the run.'],
    ['EACCES', 'permission denied (EACCES)', 'Make /runs/r readable and writable for this user, then `wave resume r` finishes the run.'],
    ['EDQUOT', 'the disk quota is exceeded (EDQUOT)', 'Free space under your disk quota for /runs/r, or raise the quota, then `wave resume r` finishes the run.'],
  ])('%s names the path, the cause in words and what to do', (code, words, hint) => {
    const error = ioError('write', '/runs/r/run.json', errno(code, 'open', '/runs/r/run.json'), '`wave resume r` finishes the run');
    expect(error.code).toBe('io_error');
    expect(error.message).toBe(`cannot write /runs/r/run.json: ${words}`);
    expect(error.hint).toBe(hint);
  });

  it('takes the path and what was being done from an errno error', () => {
    expect(ioErrorOf(errno('EROFS', 'mkdir', '/runs/r/steps/a')).message).toBe('cannot create the folder /runs/r/steps/a: the file system is read-only (EROFS)');
  });

  it('tells a fault of the machine from a bug', () => {
    expect(isDiskFault(errno('ENOSPC', 'write', '/x'))).toBe(true);
    expect(isDiskFault(errno('ENOENT', 'open', '/x'))).toBe(false);
    expect(isFileSystemError(errno('ENOENT', 'open', '/x'))).toBe(true);
    expect(isFileSystemError(new TypeError('x is undefined'))).toBe(false);
  });
});
