import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { WaveError, type SourceLocation } from '../../core/errors/errors.js';

/** Resolves a path written in a configuration file: relative paths start at the manifest's folder. */
export function resolveFromManifest(manifestDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(manifestDir, path);
}

/**
 * file_not_found when `value` (relative to the manifest's folder) does not exist. Paths holding a
 * `{{ template }}` are only known at run time and are not checked.
 */
export function missingFile(value: unknown, manifestDir: string, subject: string, location: SourceLocation): WaveError | undefined {
  if (typeof value !== 'string' || value === '' || value.includes('{{')) return undefined;
  const absolute = resolveFromManifest(manifestDir, value);
  if (existsSync(absolute)) return undefined;
  return new WaveError('file_not_found', `${subject} \`${value}\`, which does not exist (looked for ${absolute})`, {
    location,
    hint: 'Paths are relative to the folder of wave.yaml, not to the current directory.',
  });
}
