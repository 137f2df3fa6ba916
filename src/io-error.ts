import { dirname } from 'node:path';
import { WaveError } from './core/errors/errors.js';

/** errno codes that mean the machine, not Wave or the input, is at fault: a full, read-only or refused disk. */
const FAULT_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'EMFILE', 'ENFILE', 'EFBIG']);

const CAUSE_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'the disk reported an input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EFBIG: 'the file is too large for its file system',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
};

/** Whether `error` is an errno error a full, read-only or refused disk raises (never a plain ENOENT). */
export function isDiskFault(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && FAULT_CODES.has((error as NodeJS.ErrnoException).code!);
}

/** Whether `error` came from a file-system call (a disk fault, or a file or folder gone from under Wave): an io_error, never a bug. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  if (isDiskFault(error)) return true;
  const { syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  return error instanceof Error && typeof syscall === 'string' && typeof path === 'string';
}

/** `no space left on the device (ENOSPC)`: a cause in words with its errno code. */
export function describeCause(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code && CAUSE_WORDS[code]) return `${CAUSE_WORDS[code]} (${code})`;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** What the user can do about a disk fault on `path`, and `then` what to run once it is fixed. */
export function diskFaultHint(path: string, cause: unknown, then?: string): string {
  const folder = dirname(path);
  const after = then ? `, then ${then}` : '';
  switch ((cause as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOSPC':
    case 'EFBIG':
      return `Free space on the disk holding ${folder}${after}.`;
    case 'EDQUOT':
      return `Free space under your disk quota for ${folder}, or raise the quota${after}.`;
    case 'EROFS':
      return `Make ${folder} writable (its file system is mounted read-only)${after}.`;
    case 'EACCES':
    case 'EPERM':
      return `Make ${folder} readable and writable for this user${after}.`;
    case 'EMFILE':
    case 'ENFILE':
      return `Raise the open-file limit (ulimit -n) or close other programs${after}.`;
    case 'EIO':
      return `Check the disk holding ${folder}${after}.`;
    case 'ENOENT':
    case 'ENOTDIR':
    case 'EISDIR':
      return `Check that ${path} exists${after}.`;
    default:
      return `Check that ${folder} exists and can be read and written${after}.`;
  }
}

/** An io_error naming what could not be done to `path`, the cause in words and its errno code, with a hint. */
export function ioError(action: string, path: string, cause: unknown, then?: string): WaveError {
  if (cause instanceof WaveError && cause.code === 'io_error') return cause;
  return new WaveError('io_error', `cannot ${action} ${path}: ${describeCause(cause)}`, { hint: diskFaultHint(path, cause, then), cause });
}

/** An errno error (which carries its path and system call) as an io_error. */
export function ioErrorOf(error: NodeJS.ErrnoException, then?: string): WaveError {
  const path = error.path ?? (error as { dest?: string }).dest ?? '(unknown file)';
  return ioError(actionOf(error.syscall), path, error, then);
}

function actionOf(syscall: string | undefined): string {
  switch (syscall) {
    case 'mkdir':
      return 'create the folder';
    case 'write':
      return 'write';
    case 'read':
    case 'scandir':
      return 'read';
    default:
      return syscall ?? 'access';
  }
}
