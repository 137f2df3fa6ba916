import { isSameProcessAlive, processStartTime } from './liveness.js';

/** `<pid>-<start time>` in a name: what Wave leaves on the machine (temp folders, cgroups) says which Wave process made it. */
const TAG = /^(\d+)-(\d+)-/;

/** This Wave process as a name part, `<pid>-<start time in ticks>`: a reused pid is never taken for it. */
export function ownerTag(): string {
  return `${process.pid}-${processStartTime(process.pid) ?? 0}`;
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
