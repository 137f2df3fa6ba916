// Packs the package as it ships: the files package.json lists, and a package.json without what only a clone uses
// (its scripts: `prepare` builds dist/ after `npm ci`, and npm would list it to a user installing the tarball; and
// allowScripts). devDependencies stay: they pin the agent CLIs that `wave compile` and the Action install. Usage: node scripts/pack.mjs [--pack-destination <folder>]; prints the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--pack-destination');
const destination = resolve(at === -1 ? root : process.argv[at + 1]);
const npm = (args, cwd) => JSON.parse(execFileSync('npm', [...args, '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' }));

const stage = mkdtempSync(join(tmpdir(), 'wave-pack-'));
try {
  // npm's own list of what it packs (the `files` field, README, LICENSE, package.json) is what is staged.
  const [{ files }] = npm(['pack', '--dry-run'], root);
  for (const { path } of files) {
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    cpSync(join(root, path), join(stage, path));
  }
  const { scripts: _scripts, allowScripts: _allowed, ...shipped } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);
  const [{ filename }] = npm(['pack', '--pack-destination', destination], stage);
  process.stdout.write(`${join(destination, filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
