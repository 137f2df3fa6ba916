import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { resolvePipelinePath } from '../load/paths.js';
import { isRecord } from '../load/value-path.js';
import { declaredArtifacts, stepLabel } from './raw-step.js';
import { didYouMean } from './suggest.js';
import type { ManifestView } from './step-checks.js';

/** The artifact names a pipeline hands another: those it declares, and whether a child it runs may add more. */
export interface PipelineArtifactNames {
  declared: string[];
  /** A step of it runs a child, whose artifacts come back as the step's: only the run knows them. */
  open: boolean;
}

/** The artifact names a pipeline (its raw value) makes available to another: its steps' output artifacts and its pipeline_outputs. */
export function pipelineArtifactNames(raw: unknown): PipelineArtifactNames {
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps.filter(isRecord) : [];
  const outputs = isRecord(raw) && isRecord(raw.pipeline_outputs) ? Object.keys(raw.pipeline_outputs) : [];
  return {
    declared: [...new Set([...steps.flatMap(declaredArtifacts), ...outputs])],
    open: steps.some((step) => step.pipeline !== undefined || step.branch !== undefined),
  };
}

/** A pipeline file's raw value, or undefined when it cannot be read (its own validation says why). */
export function readRawPipeline(file: string): unknown {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A step's `inject_artifacts` entries name a step of this pipeline or another pipeline, never both; the other pipeline
 * must exist and, when its artifacts are known before it runs, declare the artifact.
 */
export function pipelineArtifactRefErrors(step: Record<string, unknown>, index: number, view: ManifestView, locator: Locator): WaveError[] {
  const refs = isRecord(step.memory) && Array.isArray(step.memory.inject_artifacts) ? step.memory.inject_artifacts : [];
  const label = stepLabel(step, index);
  const errors: WaveError[] = [];
  refs.forEach((ref, i) => {
    if (!isRecord(ref)) return;
    const at = ['steps', index, 'memory', 'inject_artifacts', i];
    if (ref.step !== undefined && ref.pipeline !== undefined) {
      errors.push(
        new WaveError('conflicting_fields', `${label} injects an artifact of both a step and a pipeline`, {
          location: locator.locateKey([...at, 'pipeline']),
          hint: 'Keep `step` for an artifact of an earlier step of this pipeline, or `pipeline` for one of another pipeline.',
        }),
      );
      return;
    }
    if (ref.step === undefined && ref.pipeline === undefined) {
      errors.push(
        new WaveError('missing_field', `${label} injects an artifact without saying where it comes from`, {
          location: locator.locate(at),
          hint: 'Add `step: <id>` for an artifact of an earlier step, or `pipeline: <name>` for one of another pipeline.',
        }),
      );
      return;
    }
    if (typeof ref.pipeline !== 'string') return;
    const problem = otherPipelineProblem(ref.pipeline, ref.artifact, view);
    if (problem) errors.push(new WaveError(problem.code, `${label} ${problem.message}`, { location: locator.locate([...at, problem.key]), hint: problem.hint }));
  });
  return errors;
}

/** Why `artifact` of pipeline `name` cannot be had, or undefined when it can (or cannot be known before it runs). */
function otherPipelineProblem(name: string, artifact: unknown, view: ManifestView) {
  let file: string;
  try {
    file = resolvePipelinePath(name, view.dir, view.dir);
  } catch (error) {
    if (!(error instanceof WaveError)) throw error;
    return {
      code: error.code,
      key: 'pipeline',
      message: `injects an artifact of pipeline \`${name}\`, which is neither a file nor a name in pipelines/ or .agents/pipelines/`,
      hint: error.hint,
    };
  }
  const names = pipelineArtifactNames(readRawPipeline(file));
  if (typeof artifact !== 'string' || names.open || names.declared.includes(artifact)) return undefined;
  return {
    code: 'unknown_artifact' as const,
    key: 'artifact',
    message: `injects artifact \`${artifact}\` of pipeline \`${name}\`, which declares no such output artifact or pipeline output`,
    hint: didYouMean(artifact, names.declared, `Artifacts \`${name}\` declares`),
  };
}
