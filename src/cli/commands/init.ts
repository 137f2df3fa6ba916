import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { WaveError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { schemaFileName, type SchemaName } from '../../schemas.js';

const PACKAGE_NAME = 'wave-pipelines';

/** The files `wave init` writes: the shipped defaults, copied so the scaffold is what the tests validate. */
const SCAFFOLD: ReadonlyArray<{ path: string; schema?: SchemaName }> = [
  { path: 'wave.yaml', schema: 'manifest' },
  { path: 'personas/base-protocol.md' },
  { path: 'personas/navigator.md' },
  { path: 'personas/craftsman.md' },
  { path: 'personas/reviewer.md' },
  { path: 'personas/critic.md' },
  { path: 'pipelines/review.yaml', schema: 'pipeline' },
];

const SCHEMA_COMMENT = /^# yaml-language-server: \$schema=.*\n/;

/** `wave init [dir]`: scaffolds a manifest, personas and an example pipeline that validate as written. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create wave.yaml, personas/ and pipelines/ in a folder (default: here).')
    .argument('[dir]', 'the project folder', '.')
    .option('--force', 'overwrite files that already exist')
    .action((dir: string, flags: { force?: boolean }) => {
      const written = scaffold(resolve(process.cwd(), dir), flags.force ?? false);
      for (const file of written) process.stdout.write(`created ${relative(process.cwd(), file) || file}\n`);
      process.stdout.write('next: `wave validate` checks the files, `wave run review --input "<what to review>"` runs the example\n');
    });
}

/** Writes the scaffold into `root`; refuses (writing nothing) when a file exists and `force` is off. */
export function scaffold(root: string, force: boolean): string[] {
  const targets = SCAFFOLD.map((entry) => ({ ...entry, target: join(root, entry.path) }));
  const existing = targets.filter((t) => existsSync(t.target)).map((t) => t.path);
  if (existing.length > 0 && !force) {
    throw new WaveError('file_exists', `${root} already has ${existing.map((p) => `\`${p}\``).join(', ')}`, {
      hint: 'Pass --force to overwrite them, or run `wave init <another-folder>`.',
    });
  }
  for (const { path, schema, target } of targets) {
    const text = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, schema ? `${schemaComment(schema, dirname(target))}\n${text.replace(SCHEMA_COMMENT, '')}` : text);
  }
  return targets.map((t) => t.target);
}

/**
 * The editor's schema line for a file written into `fileDir`. When Wave is installed in the
 * project (node_modules/wave-pipelines in it or a parent), a relative path keeps the line valid on
 * every clone; otherwise (a global install, npx) the absolute path of this package's schemas is the
 * only location known to exist.
 */
export function schemaComment(name: SchemaName, fileDir: string): string {
  const file = schemaFileName(name);
  for (let dir = fileDir; ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', PACKAGE_NAME, 'schemas', file);
    if (existsSync(installed)) {
      const rel = relative(fileDir, installed).split(sep).join('/');
      return `# yaml-language-server: $schema=${rel.startsWith('.') ? rel : `./${rel}`}`;
    }
    if (dirname(dir) === dir) break;
  }
  return `# yaml-language-server: $schema=${join(PACKAGE_ROOT, 'schemas', file)}`;
}
