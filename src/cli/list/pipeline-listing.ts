import { basename, extname, relative, resolve } from 'node:path';
import { findProjectRoot, listPipelineFiles } from '../../config/load/paths.js';
import { isRecord } from '../../config/load/value-path.js';
import { pipelineMappingOrEmpty } from '../pipeline-as-written.js';
import { formatError } from '../../core/errors/errors.js';
import { validateProject } from '../../app/validate-project.js';

/** One pipeline of the project as `wave list pipelines` shows it. */
export interface PipelineListing {
  /** What `wave run` takes: the file's name without its extension. */
  name: string;
  /** Relative to the project folder. */
  file: string;
  description?: string;
  /** Whether `wave run <name>` would load it (the manifest too): no problem found by `wave validate`. */
  loads: boolean;
  /** `metadata.disabled: true`: it loads, and `wave run` refuses it. */
  disabled?: boolean;
  /** The name is in both pipelines/ and .agents/pipelines/: `wave run` needs the file's path. */
  ambiguous?: boolean;
  /** What stops it loading, as `wave validate` prints each problem. */
  problems: string[];
}

/** Every pipeline `wave run <name>` finds in the project around `cwd` (or -m's), with what it is and whether it loads. */
export async function listPipelines(cwd: string, manifestArg?: string): Promise<PipelineListing[]> {
  const root = findProjectRoot(cwd, manifestArg);
  const files = listPipelineFiles(root);
  const reports = await validateProject([], manifestArg, cwd);
  const reportOf = new Map(reports.map((report) => [resolve(cwd, report.file), report]));
  // The manifest's report comes first when there is one: its problems stop every pipeline.
  const manifestProblems = reports.filter((report) => !files.includes(resolve(cwd, report.file))).flatMap((report) => report.errors.map((e) => formatError(e)));
  const names = files.map((file) => basename(file, extname(file)));
  return files.map((file, index) => {
    const report = reportOf.get(file);
    const problems = [...manifestProblems, ...(report?.errors ?? []).map((e) => formatError(e))];
    const description = descriptionOf(file);
    return {
      name: names[index]!,
      file: relative(root, file),
      ...(description !== undefined ? { description } : {}),
      loads: problems.length === 0,
      ...(report?.disabled ? { disabled: true } : {}),
      ...(names.indexOf(names[index]!) !== names.lastIndexOf(names[index]!) ? { ambiguous: true } : {}),
      problems,
    };
  });
}

/** `metadata.description` as written, read apart from the checks so a broken pipeline still says what it is for. */
function descriptionOf(file: string): string | undefined {
  const metadata = pipelineMappingOrEmpty(file).metadata;
  return isRecord(metadata) && typeof metadata.description === 'string' ? metadata.description.trim() : undefined;
}
