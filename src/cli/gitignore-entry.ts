import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What became of a project's .gitignore. */
export type GitignoreChange = 'created' | 'appended' | 'present';

/** The lines git reads as ignoring the folder `folder` at the top of the project, however it is written. */
function linesIgnoring(folder: string): Set<string> {
  return new Set([folder, `${folder}/`, `/${folder}`, `/${folder}/`]);
}

/** Makes `<root>/.gitignore` ignore `folder` (e.g. `.wave`): creates the file, or appends one line unless a line already does. */
export function ignoreFolder(root: string, folder: string): GitignoreChange {
  const file = join(root, '.gitignore');
  const line = `${folder}/`;
  if (!existsSync(file)) {
    writeFileSync(file, `${line}\n`);
    return 'created';
  }
  const text = readFileSync(file, 'utf8');
  const ignoring = linesIgnoring(folder);
  if (text.split(/\r?\n/).some((existing) => ignoring.has(existing.trim()))) return 'present';
  // A last line without its newline would otherwise run into ours.
  writeFileSync(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
  return 'appended';
}
