import { createHash } from 'node:crypto';

/** A folder name for a branch; names changed by the replacement get a hash so two branches never share one. */
export function branchSlug(branch: string): string {
  const slug = branch.replace(/[^A-Za-z0-9._-]+/g, '-');
  if (slug === branch) return slug;
  return `${slug}-${createHash('sha256').update(branch).digest('hex').slice(0, 8)}`;
}
