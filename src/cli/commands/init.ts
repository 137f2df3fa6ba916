import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseDocument } from 'yaml';
import { WaveError } from '../../core/errors/errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import type { SchemaName } from '../../schemas.js';
import { ignoreFolder, type GitignoreChange } from '../gitignore-entry.js';
import { projectNameOf } from '../project-name.js';
import { linksOnTheWay, linksRefused, removeLinks, writeNoFollow } from '../no-follow-write.js';
import { SCHEMA_COPIES_DIR, schemaComment, schemaCopyFiles, schemaTarget, withSchemaComment, writeSchemaCopies } from '../schema-reference.js';
import { shellWord } from '../../core/shell-word.js';

/** One file `wave init` writes: `path` in the project, copied from `from` (default: the same path) in Wave's package. */
interface ScaffoldFile {
  path: string;
  from?: string;
  schema?: SchemaName;
}

/** The files `wave init` writes: the shipped defaults and examples, copied so the scaffold is what the tests run. */
const SCAFFOLD: readonly ScaffoldFile[] = [
  { path: 'wave.yaml', schema: 'manifest' },
  { path: 'personas/base-protocol.md' },
  { path: 'personas/navigator.md' },
  { path: 'personas/craftsman.md' },
  { path: 'personas/reviewer.md' },
  { path: 'personas/critic.md' },
  // Commands only: runs at once, with no agent, no API key and no git.
  { path: 'pipelines/hello.yaml', from: 'templates/init/pipelines/hello.yaml', schema: 'pipeline' },
  { path: 'pipelines/review.yaml', schema: 'pipeline' },
  { path: 'pipelines/review-llm.yaml', schema: 'pipeline' },
];

/** What `wave init` did to a project. */
interface ScaffoldResult {
  /** Every file written, scaffold and schema copies. */
  written: string[];
  gitignore: GitignoreChange;
}

/** `wave init [dir]`: scaffolds a manifest, personas, a pipeline that runs at once, and agent examples. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create wave.yaml, personas/ and pipelines/ in a folder (default: here), and ignore .wave/ in .gitignore.')
    .argument('[dir]', 'the project folder, created if missing', '.')
    .option('--force', 'overwrite files that already exist')
    .action((dir: string, flags: { force?: boolean }) => {
      const cwd = process.cwd();
      const root = resolve(cwd, dir);
      const { written, gitignore } = scaffold(root, flags.force ?? false);
      const shown = (file: string) => relative(cwd, file) || file;
      for (const file of written) process.stdout.write(`created ${shown(file)}\n`);
      if (gitignore !== 'present')
        process.stdout.write(`${gitignore === 'created' ? 'created' : 'updated'} ${shown(join(root, '.gitignore'))} (ignores .wave/, where runs are kept)\n`);
      if (written.some((file) => dirname(file) === join(root, SCHEMA_COPIES_DIR)))
        process.stdout.write(`commit ${shown(join(root, SCHEMA_COPIES_DIR))}/ with the rest: the editor of whoever clones the project checks the YAML files against it\n`);
      process.stdout.write(closingHint(relative(cwd, root)));
    });
}

/** Where to go and what to run next; `cd` first when the project is not the current folder. */
function closingHint(folder: string): string {
  const cd = folder === '' ? '' : `cd ${shellWord(folder)} && `;
  return [
    `next: ${cd}wave run hello    (commands only: no agent, no API key, no git)`,
    '      `wave validate` checks every file; `wave run review --input "<what to review>"` runs the Claude Code example in a git repository',
    '',
  ].join('\n');
}

/** The text a scaffold file is written with (its schema line, and for the manifest the project's name), and the schema it names. */
function scaffoldText(entry: ScaffoldFile, root: string, target: string): { text: string; schemaFile?: string } {
  const text = readFileSync(join(PACKAGE_ROOT, entry.from ?? entry.path), 'utf8');
  const named = entry.schema === 'manifest' ? withProjectName(text, projectNameOf(root)) : text;
  if (!entry.schema) return { text: named };
  const schemaFile = schemaTarget(entry.schema, dirname(target), root);
  return { text: withSchemaComment(named, schemaComment(schemaFile, dirname(target))), schemaFile };
}

/** The manifest with `metadata.name` set, its comments and layout kept. */
function withProjectName(text: string, name: string): string {
  const document = parseDocument(text);
  document.setIn(['metadata', 'name'], name);
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** Writes the scaffold into `root`; refuses (writing nothing) when a scaffold file exists or a symlink is on the way and `force` is off. */
function scaffold(root: string, force: boolean): ScaffoldResult {
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new WaveError('invalid_argument', `${root} is a file, not a folder`, { hint: 'Name a folder for the project: a new one, or the project you are in.' });
  }
  const files = SCAFFOLD.map((entry) => {
    const target = join(root, entry.path);
    return { entry, target, ...scaffoldText(entry, root, target) };
  });
  // The committed copies, when the files name them rather than the project's own install of Wave.
  const copies = files.some((f) => f.schemaFile && dirname(f.schemaFile) === join(root, SCHEMA_COPIES_DIR)) ? schemaCopyFiles(root) : [];
  // A link in the project would carry a write outside it: refused, or with --force replaced (never its target written).
  const links = linksOnTheWay(root, [...files.map((f) => f.target), ...copies, join(root, '.gitignore')]);
  if (links.length > 0 && !force) throw linksRefused(links);
  const existing = files.filter((f) => existsSync(f.target)).map((f) => f.entry.path);
  if (existing.length > 0 && !force) {
    throw new WaveError('file_exists', `${root} already has ${existing.map((p) => `\`${p}\``).join(', ')}`, {
      hint: 'Pass --force to overwrite them, or run `wave init <another-folder>`.',
    });
  }
  removeLinks(links);
  mkdirSync(root, { recursive: true });
  for (const { target, text } of files) writeNoFollow(root, target, text);
  const written = [...files.map((f) => f.target), ...(copies.length ? writeSchemaCopies(root) : [])];
  return { written, gitignore: ignoreFolder(root, '.wave') };
}
