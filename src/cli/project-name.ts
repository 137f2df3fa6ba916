import { basename } from 'node:path';

/** The name a project gets when its folder's name has no letter or digit to keep. */
export const FALLBACK_PROJECT_NAME = 'wave-project';

/** Longest name kept: a name also prefixes folders and labels, which stay readable at this length. */
const MAX_LENGTH = 63;

/**
 * A manifest's `metadata.name` made from its folder's name: lowercase letters, digits and single dashes, accents
 * dropped ("Mon Projet (v2)" -> "mon-projet-v2"), at most 63 characters.
 */
export function projectNameOf(folder: string): string {
  const words = basename(folder)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const name = words.join('-').slice(0, MAX_LENGTH).replace(/-+$/, '');
  return name === '' ? FALLBACK_PROJECT_NAME : name;
}
