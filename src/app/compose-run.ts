import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadPipeline, loadProjectManifest, resolvePipelinePath } from '../config/load/load.js';
import { WaveError } from '../core/errors/errors.js';
import { writeFileAtomicSync } from '../state/atomic-write.js';
import { slugPipelineName } from '../state/run-id.js';
import { composeStages, handOffReport, handOffs, type ComposedPipeline } from './compose-plan.js';
import type { RunOutcome } from './run-outcome.js';
import type { StartRunRequest } from './run-request.js';
import { startRun } from './run-sequence.js';

/** What `wave compose` asks for: the pipelines with their `--` stage marks, and how the run goes. */
export interface ComposeRequest extends Omit<StartRunRequest, 'pipeline'> {
  operands: readonly string[];
  parallel: boolean;
  /** Prints the hand-off report and runs nothing. */
  validateOnly: boolean;
  /** Where the hand-off report goes. */
  out: { write(text: string): unknown };
}

/**
 * `wave compose A B [-- C D]`: checks what each pipeline hands the later ones (Wave's cross-pipeline artifacts), then
 * runs them as one run whose steps are the pipelines (child runs, a stage's side by side), so the later ones inject
 * the earlier ones' artifacts, and `wave status`, `resume` and `cancel` treat the composition as one run.
 */
export async function composeRun(request: ComposeRequest): Promise<RunOutcome | undefined> {
  const manifest = await loadProjectManifest(request.cwd, request.manifest);
  const names = composeStages(request.operands, request.parallel);
  const stages: ComposedPipeline[][] = [];
  for (const stage of names) {
    const loaded: ComposedPipeline[] = [];
    for (const name of stage) {
      const file = resolvePipelinePath(name, manifest.dir, request.cwd);
      const value = (await loadPipeline(file, manifest)).value;
      loaded.push({ name: value.metadata.name, file, value });
    }
    stages.push(loaded);
  }
  refuseRepeats(stages.flat());
  const report = handOffReport(stages, handOffs(stages));
  if (request.validateOnly || report.errors > 0) request.out.write(report.text);
  if (report.errors > 0)
    throw new WaveError('invalid_argument', `the composition hands over artifacts it does not have (${report.errors} above)`, {
      hint: 'Put each pipeline after the ones whose artifacts it injects, or mark those injections `optional: true`.',
    });
  if (request.validateOnly) return undefined;
  return startRun({ ...request, pipeline: writeComposition(manifest.dir, stages) });
}

/** A pipeline named twice would hand its artifacts over under one name twice. */
function refuseRepeats(pipelines: readonly ComposedPipeline[]): void {
  const seen = new Set<string>();
  for (const { name } of pipelines) {
    if (seen.has(name))
      throw new WaveError('invalid_argument', `\`${name}\` is named twice in the composition`, {
        hint: 'Name each pipeline once: run it again with another `wave compose` or `wave run`.',
      });
    seen.add(name);
  }
}

/** Writes the composition as a pipeline of child pipeline steps (each stage depends on the one before) where `wave resume` finds it again. */
function writeComposition(manifestDir: string, stages: readonly (readonly ComposedPipeline[])[]): string {
  const name = `compose ${stages.map((stage) => stage.map((p) => p.name).join(' + ')).join(' then ')}`;
  const steps = stages.flatMap((stage, index) =>
    stage.map((p) => ({ id: p.name, pipeline: p.file, ...(index > 0 ? { dependencies: stages[index - 1]!.map((before) => before.name) } : {}) })),
  );
  const folder = join(manifestDir, '.wave', 'compositions');
  mkdirSync(folder, { recursive: true });
  const text = stringify({ kind: 'WavePipeline', metadata: { name, description: 'Written by `wave compose`: each step runs one pipeline of the composition.' }, steps });
  // Named by its content too: two compositions never share a file, and the same one is written once.
  const file = join(folder, `${slugPipelineName(name)}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}.yaml`);
  writeFileAtomicSync(file, text);
  return file;
}
