import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { WaveError } from '../../core/errors/errors.js';
import { parseLoopBodyAddress } from './loop-body.js';

const MANIFEST_NAME = 'wave.yaml';
const PIPELINE_EXTENSIONS = ['.yaml', '.yml'];

/**
 * The manifest to use: `explicit` (-m; a file, or a folder holding wave.yaml) resolved from `cwd`,
 * else wave.yaml in `cwd` or the nearest parent folder.
 */
export function findManifest(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (existsSync(path) && statSync(path).isDirectory()) return findManifestIn(path, explicit);
    if (existsSync(path)) return path;
    throw new WaveError('file_not_found', `the manifest \`${explicit}\` does not exist (looked for ${path})`, {
      hint: 'Check the path given to -m, or run `wave init` to create a wave.yaml.',
    });
  }
  const found = nearestManifest(cwd);
  if (found) return found;
  throw noManifestError(cwd);
}

/** There is no wave.yaml in `cwd` or any parent folder (and the command needs one). */
export function noManifestError(cwd: string): WaveError {
  return new WaveError('file_not_found', `no ${MANIFEST_NAME} in ${resolve(cwd)} or any parent folder`, {
    hint: 'Run `wave init` to create one, or pass -m <path/to/wave.yaml>.',
  });
}

/** wave.yaml in `cwd` or the nearest parent folder; undefined when there is none up to the root. */
export function nearestManifest(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, MANIFEST_NAME);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The manifest -m names (which must exist), else the nearest wave.yaml; undefined when there is none. */
export function manifestFileOf(cwd: string, explicit?: string): string | undefined {
  return explicit === undefined ? nearestManifest(cwd) : findManifest(cwd, explicit);
}

/**
 * The folder a project's state (.wave/) and relative paths hang from: the manifest's folder (-m, else the nearest
 * wave.yaml), else `cwd` itself, where the built-in manifest of a project without one is rooted.
 */
export function findProjectRoot(cwd: string, explicit?: string): string {
  const manifest = manifestFileOf(cwd, explicit);
  return manifest === undefined ? resolve(cwd) : dirname(manifest);
}

function findManifestIn(dir: string, given: string): string {
  const candidate = join(dir, MANIFEST_NAME);
  if (existsSync(candidate)) return candidate;
  throw new WaveError('file_not_found', `the folder \`${given}\` holds no ${MANIFEST_NAME}`, {
    hint: `Run \`wave init ${given}\` to create one.`,
  });
}

/** Where a project's pipelines live, relative to the manifest: this layout's folder, then Wave's `.agents/` layout. */
export const PIPELINE_FOLDERS = ['pipelines', join('.agents', 'pipelines')] as const;

/** The pipeline files of a project: <manifestDir>/pipelines/ and <manifestDir>/.agents/pipelines/ (*.yaml|yml), each sorted by name. */
export function listPipelineFiles(manifestDir: string): string[] {
  return PIPELINE_FOLDERS.flatMap((folder) => {
    const dir = join(manifestDir, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => PIPELINE_EXTENSIONS.includes(extname(name)))
      .sort()
      .map((name) => join(dir, name));
  });
}

/**
 * A pipeline argument: an existing file (relative to `cwd`), else a name looked up as <name>.yaml or .yml in
 * <manifestDir>/pipelines/ and <manifestDir>/.agents/pipelines/. A name found in both folders is refused rather than
 * one of them chosen silently. Throws file_not_found listing the known names.
 */
export function resolvePipelinePath(nameOrPath: string, manifestDir: string, cwd: string): string {
  // A loop iteration's body is named by its pipeline file's path, already resolved.
  if (parseLoopBodyAddress(nameOrPath)) return nameOrPath;
  const asPath = resolve(cwd, nameOrPath);
  if (existsSync(asPath) && statSync(asPath).isFile()) return asPath;
  const looksLikeName = !/[\\/]/.test(nameOrPath);
  if (looksLikeName) {
    const name = PIPELINE_EXTENSIONS.includes(extname(nameOrPath)) ? basename(nameOrPath, extname(nameOrPath)) : nameOrPath;
    const found = PIPELINE_FOLDERS.flatMap((folder) => {
      const file = PIPELINE_EXTENSIONS.map((extension) => join(manifestDir, folder, `${name}${extension}`)).find((candidate) => existsSync(candidate));
      return file ? [file] : [];
    });
    if (found.length > 1) {
      throw new WaveError('invalid_argument', `the pipeline name \`${name}\` is ambiguous: ${found.join(' and ')} both exist`, {
        hint: 'Pass the path of the one to use, or rename one of them.',
      });
    }
    if (found[0]) return found[0];
  }
  const known = listPipelineFiles(manifestDir).map((file) => basename(file, extname(file)));
  const folders = PIPELINE_FOLDERS.map((folder) => join(manifestDir, folder)).join(' or ');
  throw new WaveError('file_not_found', `no pipeline \`${nameOrPath}\`: neither a file nor a name in ${folders}`, {
    hint: known.length > 0 ? `Name one of the pipelines of this project: ${known.join(', ')}.` : 'This project has no pipelines/ folder yet; `wave init` creates one.',
  });
}
