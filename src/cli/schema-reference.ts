import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { nearestManifest } from '../config/load/paths.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { isSchemaName, schemaFileName, type SchemaName } from '../schemas.js';
import { shellWord } from '../core/shell-word.js';
import { readNoFollow, writeNoFollow } from './no-follow-write.js';

const PACKAGE_NAME = 'wave-pipelines';

/** Where `wave init` puts this Wave's schemas when Wave is not installed in the project: committed, so every clone's editor finds them. */
export const SCHEMA_COPIES_DIR = '.wave-schemas';

/** Where earlier versions of `wave init` put the copies: inside the ignored .wave/, so a clone lacks them until Wave runs. */
const IGNORED_COPIES_DIR = join('.wave', 'schemas');

/** The formats a project's YAML files are written in. */
const PROJECT_SCHEMAS: readonly SchemaName[] = ['manifest', 'pipeline'];

/** The editor's schema line at the top of a YAML file. */
const SCHEMA_LINE = /^# yaml-language-server: \$schema=(.*)$/;

function shippedSchema(name: SchemaName): string {
  return readFileSync(join(PACKAGE_ROOT, 'schemas', schemaFileName(name)), 'utf8');
}

/** The schema of the project's own install of Wave (node_modules/wave-pipelines in `fileDir` or a parent), if any. */
function installedSchema(name: SchemaName, fileDir: string): string | undefined {
  for (let dir = fileDir; ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', PACKAGE_NAME, 'schemas', schemaFileName(name));
    if (existsSync(installed)) return installed;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The schema a file written into `fileDir` of the project at `root` should name: the project's own install of Wave,
 * which every clone gets back with `npm install`; else the project's committed copy under .wave-schemas/ (a global
 * install's or npx's path differs per machine, and npx's cache is pruned), which `wave init` writes and `wave validate` refreshes.
 */
export function schemaTarget(name: SchemaName, fileDir: string, root: string): string {
  return installedSchema(name, fileDir) ?? join(root, SCHEMA_COPIES_DIR, schemaFileName(name));
}

/** The `# yaml-language-server: $schema=…` line of a file in `fileDir` naming `target`, relative so it holds on every clone. */
export function schemaComment(target: string, fileDir: string): string {
  const rel = relative(fileDir, target).split(sep).join('/');
  return `# yaml-language-server: $schema=${rel.startsWith('../') ? rel : `./${rel}`}`;
}

/** The file text with its schema line (if any) replaced by `comment`. */
export function withSchemaComment(text: string, comment: string): string {
  const [first, ...rest] = text.split('\n');
  return SCHEMA_LINE.test(first ?? '') ? [comment, ...rest].join('\n') : `${comment}\n${text}`;
}

/** Writes the copy of `name`'s schema at `target` (`<root>/<copies folder>/<file>`) unless it already holds this Wave's, through no symlink; true when it wrote. */
function writeSchemaCopy(name: SchemaName, root: string, target: string): boolean {
  const text = shippedSchema(name);
  if (readNoFollow(target) === text) return false;
  writeNoFollow(root, target, text);
  return true;
}

/** The files writeSchemaCopies writes into `<root>/.wave-schemas/`. */
export function schemaCopyFiles(root: string): string[] {
  return PROJECT_SCHEMAS.map((name) => join(root, SCHEMA_COPIES_DIR, schemaFileName(name)));
}

/** Writes this Wave's manifest and pipeline schemas into `<root>/.wave-schemas/`; returns the files. */
export function writeSchemaCopies(root: string): string[] {
  const files = schemaCopyFiles(root);
  PROJECT_SCHEMAS.forEach((name, index) => writeSchemaCopy(name, root, files[index]!));
  return files;
}

/** The local file a YAML file's first line names as its schema, resolved from the file's folder as an editor does; none for a URL. */
function schemaReference(file: string): { ref: string; target: string } | undefined {
  let first: string;
  try {
    first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  } catch {
    return undefined;
  }
  const ref = SCHEMA_LINE.exec(first)?.[1]?.trim();
  // A URL (scheme:) is the editor's to fetch.
  if (!ref || /^[a-z][a-z0-9+.-]+:/i.test(ref)) return undefined;
  return { ref, target: resolve(dirname(file), ref) };
}

/** The copy of this Wave's schemas that `target` is, with the project it is in: a file named `<schema>.schema.json` in .wave-schemas/ or .wave/schemas/. */
function waveCopy(target: string): { name: SchemaName; root: string } | undefined {
  const name = basename(target).replace(/\.schema\.json$/, '');
  if (!isSchemaName(name)) return undefined;
  const folder = dirname(target);
  if (basename(folder) === SCHEMA_COPIES_DIR) return { name, root: dirname(folder) };
  if (folder.split(sep).slice(-2).join(sep) === IGNORED_COPIES_DIR) return { name, root: dirname(dirname(folder)) };
  return undefined;
}

/** The folders whose copies a file's line may have Wave write: its project's (the nearest wave.yaml's folder), else its own folder or the one above. */
function projectRootsOf(file: string): string[] {
  const manifest = nearestManifest(dirname(file));
  return manifest ? [dirname(manifest)] : [dirname(file), dirname(dirname(file))];
}

/** The copy of this Wave's schemas that a YAML file's first line names by a relative path, in the file's own project. */
function referencedCopy(file: string): { name: SchemaName; root: string; target: string } | undefined {
  const reference = schemaReference(file);
  if (!reference || isAbsolute(reference.ref)) return undefined;
  const copy = waveCopy(reference.target);
  // A cloned file's line is untrusted: it never has Wave write outside the project the file is in.
  return copy && projectRootsOf(resolve(file)).includes(copy.root) ? { ...copy, target: reference.target } : undefined;
}

/**
 * Brings the copies that `files` name (.wave-schemas/, or .wave/schemas/ of a project made by an earlier Wave) up to
 * this Wave's schemas: after a clone (.wave/ is not committed) or an upgrade. An editor aid, so a copy that cannot be
 * written is left as it is.
 */
export function refreshSchemaCopies(files: readonly string[]): void {
  for (const file of files) {
    const copy = referencedCopy(file);
    if (!copy) continue;
    try {
      writeSchemaCopy(copy.name, copy.root, copy.target);
    } catch {
      // A read-only project still validates.
    }
  }
}

/** A `$schema` line naming a file that does not exist: an editor shows "Unable to load schema" for the whole file. */
export interface MissingSchema {
  file: string;
  /** What the line says. */
  ref: string;
  hint: string;
}

/** What makes the missing schema `target` of a `format` file exist: npm install for the project's install, wave validate for Wave's copies in its project, else `wave schema`. */
function missingSchemaHint(file: string, target: string, format: SchemaName, cwd: string): string {
  if (target.split(sep).join('/').includes(`/node_modules/${PACKAGE_NAME}/`)) return `Run \`npm install\`, which installs ${PACKAGE_NAME} and its schemas.`;
  if (referencedCopy(file)) return "Run `wave validate`, which writes this Wave's schemas there.";
  return `Run \`wave schema ${format} > ${shellWord(relative(cwd, target))}\` to write the schema there, or point the line at one that exists.`;
}

/** The files among `files` (of the format `format`) whose `$schema` line names a local file that does not exist; hints name paths from `cwd`. */
export function missingSchemas(files: readonly string[], format: SchemaName, cwd: string): MissingSchema[] {
  return files.flatMap((file) => {
    const reference = schemaReference(file);
    if (!reference || existsSync(reference.target)) return [];
    return [{ file, ref: reference.ref, hint: missingSchemaHint(file, reference.target, format, cwd) }];
  });
}
