import { randomBytes } from 'node:crypto';

/** A run id is the name of its folder: letters, digits, `.`, `_` and `-`, never first a dot or a dash. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** A pipeline name as an id-safe slug: lower case, [a-z0-9-], never empty. */
export function slugPipelineName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug || 'run';
}

/** A new run id, `<pipeline>-<YYYYMMDD-HHMMSS>-<4 hex>` in UTC, so one pipeline's ids sort by time. */
export function newRunId(pipelineName: string, now: Date = new Date()): string {
  const stamp = now.toISOString(); // 2024-05-01T12:34:56.789Z
  const date = stamp.slice(0, 10).replaceAll('-', '');
  const time = stamp.slice(11, 19).replaceAll(':', '');
  return `${slugPipelineName(pipelineName)}-${date}-${time}-${randomBytes(2).toString('hex')}`;
}
