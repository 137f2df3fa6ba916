import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';
import { isSchemaName, schemaFileName, type SchemaName } from '../schemas.js';
import { readNoFollow, writeNoFollow } from './no-follow-write.js';

const PACKAGE_NAME = 'wave-pipelines';

/** Where a project keeps copies of Wave's schemas when Wave is not installed in it (ignored by git with the rest of .wave/). */
export const SCHEMA_COPIES_DIR = join('.wave', 'schemas');

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
 * which every clone gets back with `npm install`; else the project's copy under .wave/schemas/ (a global install's
 * or npx's path differs per machine, and npx's cache is pruned), which `wave init` writes and `wave validate` refreshes.
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

/** Writes the copy of `name`'s schema at `target` (`<project>/.wave/schemas/<file>`) unless it already holds this Wave's, through no symlink; true when it wrote. */
function writeSchemaCopy(name: SchemaName, target: string): boolean {
  const text = shippedSchema(name);
  if (readNoFollow(target) === text) return false;
  writeNoFollow(dirname(dirname(dirname(target))), target, text);
  return true;
}

/** The files writeSchemaCopies writes into `<root>/.wave/schemas/`. */
export function schemaCopyFiles(root: string): string[] {
  return PROJECT_SCHEMAS.map((name) => join(root, SCHEMA_COPIES_DIR, schemaFileName(name)));
}

/** Writes this Wave's manifest and pipeline schemas into `<root>/.wave/schemas/`; returns the files. */
export function writeSchemaCopies(root: string): string[] {
  const files = schemaCopyFiles(root);
  PROJECT_SCHEMAS.forEach((name, index) => writeSchemaCopy(name, files[index]!));
  return files;
}

/** The schema copy under .wave/schemas/ that a YAML file's first line names, if it names one. */
function referencedCopy(file: string): { name: SchemaName; target: string } | undefined {
  let first: string;
  try {
    first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  } catch {
    return undefined;
  }
  const ref = SCHEMA_LINE.exec(first)?.[1]?.trim();
  if (!ref || isAbsolute(ref) || ref.includes(':')) return undefined;
  const target = resolve(dirname(file), ref);
  const name = basename(target).replace(/\.schema\.json$/, '');
  if (!isSchemaName(name) || dirname(target).split(sep).slice(-2).join('/') !== '.wave/schemas') return undefined;
  return { name, target };
}

/**
 * Brings the .wave/schemas/ copies that `files` name up to this Wave's schemas: after a clone (.wave/ is not
 * committed) or an upgrade. An editor aid, so a copy that cannot be written is left as it is.
 */
export function refreshSchemaCopies(files: readonly string[]): void {
  for (const file of files) {
    const copy = referencedCopy(file);
    if (!copy) continue;
    try {
      writeSchemaCopy(copy.name, copy.target);
    } catch {
      // A read-only project still validates.
    }
  }
}
