import { join } from 'node:path';
import { readNoFollow, writeNoFollow } from './no-follow-write.js';

/** What became of a project's .gitignore. */
export type GitignoreChange = 'created' | 'appended' | 'present';

/** The lines git reads as ignoring the folder `folder` at the top of the project, however it is written. */
function linesIgnoring(folder: string): Set<string> {
  return new Set([folder, `${folder}/`, `/${folder}`, `/${folder}/`]);
}

/** Makes `<root>/.gitignore` ignore `folder` (e.g. `.wave`): creates the file, or appends one line unless a line already does; a .gitignore that is a symlink is refused, never followed. */
export function ignoreFolder(root: string, folder: string): GitignoreChange {
  const file = join(root, '.gitignore');
  const line = `${folder}/`;
  const text = readNoFollow(file);
  if (text === undefined) {
    writeNoFollow(root, file, `${line}\n`);
    return 'created';
  }
  const ignoring = linesIgnoring(folder);
  if (text.split(/\r?\n/).some((existing) => ignoring.has(existing.trim()))) return 'present';
  // A last line without its newline would otherwise run into ours.
  writeNoFollow(root, file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
  return 'appended';
}
