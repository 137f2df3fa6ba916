import { isSameProcessAlive, processStartTime } from './liveness.js';

/** `<pid>-<start time>` in a name: what Wave leaves on the machine (temp folders, cgroups) says which Wave process made it. */
const TAG = /^(\d+)-(\d+)-/;

/** This process's tag once its start time was read: it never changes, and every step's cgroup is named with it. */
let knownTag: string | undefined;

/** This Wave process as a name part, `<pid>-<start time in ticks>`: a reused pid is never taken for it. */
export function ownerTag(): string {
  if (knownTag !== undefined) return knownTag;
  const startTime = processStartTime(process.pid);
  // Unread (no /proc, or out of descriptors): 0 for now, and the next call reads again.
  if (startTime === undefined) return `${process.pid}-0`;
  return (knownTag = `${process.pid}-${startTime}`);
}

/**
 * Whether a name made with `<prefix><ownerTag()>-…` belongs to a Wave process that is gone; false for a live one and
 * for a name without a tag (never Wave's to remove).
 */
export function ownerIsGone(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const tag = TAG.exec(name.slice(prefix.length));
  if (!tag) return false;
  const startTime = Number(tag[2]);
  return !isSameProcessAlive(Number(tag[1]), startTime === 0 ? undefined : startTime);
}
