import { readFileSync } from 'node:fs';
import { findProjectRoot, resolvePipelinePath } from '../config/load/paths.js';
import { MAX_ALIAS_COUNT, parseYamlSource } from '../config/load/yaml-source.js';

/**
 * The pipeline `name` (a name or a file, found as `wave run` finds it in the project `-m` names or the one around
 * `cwd`) read as written: parsed, not checked, so a file with other problems still says what it holds. Throws when
 * it cannot be found, read or parsed.
 */
export function readPipelineAsWritten(name: string, cwd: string, manifest?: string): unknown {
  const file = resolvePipelinePath(name, findProjectRoot(cwd, manifest), cwd);
  return parseYamlSource(readFileSync(file, 'utf8'), file).doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}
