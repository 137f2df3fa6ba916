import { readFileSync } from 'node:fs';
import { findProjectRoot, resolvePipelinePath } from '../config/load/paths.js';
import { isRecord } from '../config/load/value-path.js';
import { MAX_ALIAS_COUNT, parseYamlSource } from '../config/load/yaml-source.js';

/**
 * The pipeline `name` (a name or a file, found as `wave run` finds it in the project `-m` names or the one around
 * `cwd`) read as written: parsed, not checked, so a file with other problems still says what it holds. Throws when
 * it cannot be found, read or parsed.
 */
export function readPipelineAsWritten(name: string, cwd: string, manifest?: string): unknown {
  return pipelineFileAsWritten(resolvePipelinePath(name, findProjectRoot(cwd, manifest), cwd));
}

/** A pipeline file parsed, not checked; throws when it cannot be read or parsed. */
function pipelineFileAsWritten(file: string): unknown {
  return parseYamlSource(readFileSync(file, 'utf8'), file).doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

/** A pipeline file's top-level mapping as written; empty when it cannot be read or parsed (`wave validate` says why). */
export function pipelineMappingOrEmpty(file: string): Record<string, unknown> {
  try {
    const raw = pipelineFileAsWritten(file);
    return isRecord(raw) ? raw : {};
  } catch {
    return {};
  }
}
