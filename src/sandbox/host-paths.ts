import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';

/** Host system folders a sandboxed program needs, visible read-only: the programs, their libraries and TLS roots. */
const SYSTEM_PATHS = [
  '/usr',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/nsswitch.conf',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/mime.types',
];
/** Top-level names that merged-/usr systems make links into /usr. */
const MERGED_USR_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

/** A read-only or read-write bind of a host path at the same path inside. */
export interface Bind {
  /** Where it is seen inside. */
  path: string;
  writable: boolean;
  /** The host path shown there, when it is not `path` itself. */
  source?: string;
}

/** The host's system paths, read once: they do not change while Wave runs, and every attempt's sandbox asks for them. */
let rootLinksRead: { links: ReadonlyArray<readonly [string, string]>; folders: readonly string[] } | undefined;
let systemBindsRead: readonly Bind[] | undefined;

/** The root links of a merged-/usr host (`/bin -> usr/bin`), as [link, target] pairs; real folders come back as binds. */
export function rootLinks(): { links: ReadonlyArray<readonly [string, string]>; folders: readonly string[] } {
  return (rootLinksRead ??= readRootLinks());
}

function readRootLinks(): { links: Array<[string, string]>; folders: string[] } {
  const links: Array<[string, string]> = [];
  const folders: string[] = [];
  for (const name of MERGED_USR_LINKS) {
    const path = `/${name}`;
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) links.push([path, realpathSync(path).replace(/^\//, '')]);
      else if (stat.isDirectory()) folders.push(path);
    } catch {
      // Absent on this host.
    }
  }
  return { links, folders };
}

/** The system paths present on this host, read-only. */
export function systemBinds(): readonly Bind[] {
  return (systemBindsRead ??= [...SYSTEM_PATHS, ...rootLinks().folders].filter((path) => existsSync(path)).map((path) => ({ path, writable: false })));
}

/**
 * The folder a program must see to run from outside /usr: the outermost node_modules holding it (an npm-installed
 * agent CLI often runs a native binary from a sibling package), else its own folder. Undefined under /usr.
 */
export function installFolderOf(command: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(command);
  } catch {
    return undefined;
  }
  for (const candidate of [command, real]) {
    const at = candidate.indexOf(`${sep}node_modules${sep}`);
    if (at >= 0) return candidate.slice(0, at + `${sep}node_modules`.length);
  }
  return real.startsWith(`/usr${sep}`) ? undefined : dirname(real);
}

/** The Node installation running Wave, when it lives outside /usr (nvm, a tarball): scripts with `#!/usr/bin/env node` need it. */
export function nodeInstallFolder(): string | undefined {
  const real = realpathSync(process.execPath);
  return real.startsWith(`/usr${sep}`) ? undefined : dirname(dirname(real));
}
