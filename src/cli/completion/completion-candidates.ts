import { basename, extname, relative } from 'node:path';
import { findProjectRoot, listPipelineFiles } from '../../config/load/load.js';
import { isRecord } from '../../config/load/value-path.js';
import { readPipelineAsWritten } from '../pipeline-as-written.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';

/** One thing a shell may offer: the word, and a short description zsh and fish show beside it. */
export interface Candidate {
  value: string;
  description: string;
}

/** Where the line is typed: the working folder, and the manifest `-m` names on it, if any. */
export interface CompletionPlace {
  cwd: string;
  manifest?: string;
}

/** The pipelines of the project: the files of its pipelines/ and .agents/pipelines/, by name. */
export function pipelineCandidates({ cwd, manifest }: CompletionPlace): Candidate[] {
  return quietly(() => {
    const root = findProjectRoot(cwd, manifest);
    return listPipelineFiles(root).map((file) => ({ value: basename(file, extname(file)), description: relative(root, file) }));
  });
}

/** The project's recorded runs, newest first, each described by its pipeline and status. */
export function runCandidates({ cwd, manifest }: CompletionPlace): Candidate[] {
  return quietly(() => RunStore.list(findRunsRoot(cwd, manifest)).map((run) => ({ value: run.id, description: `${run.pipeline}, ${run.status}` })));
}

/** The steps of a recorded run (an id or a unique prefix of one), in the order it planned them. */
export function runStepIds({ cwd, manifest }: CompletionPlace, run: string): string[] {
  return quietly(() => Object.keys(RunStore.open(findRunsRoot(cwd, manifest), run).record.steps));
}

/** The step ids of a pipeline (a name or a file), read as written: a file with other problems still offers its steps. */
export function pipelineStepIds({ cwd, manifest }: CompletionPlace, pipeline: string): string[] {
  return quietly(() => {
    const root = readPipelineAsWritten(pipeline, cwd, manifest);
    const steps = isRecord(root) && Array.isArray(root.steps) ? root.steps : [];
    return steps.flatMap((step: unknown) => (isRecord(step) && typeof step.id === 'string' ? [step.id] : []));
  });
}

// A completion is asked for at every Tab: a missing manifest, run or file, or a broken one, offers nothing and says nothing.
function quietly<T>(list: () => T[]): T[] {
  try {
    return list();
  } catch {
    return [];
  }
}
