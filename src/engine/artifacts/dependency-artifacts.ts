import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { WAVE_INJECTED_ARTIFACTS_DIR } from '../../core/run-paths.js';
import { WaveError } from '../../core/errors/errors.js';
import { isAttemptStep, type AttemptStep, type Plan } from '../../plan/plan-types.js';
import type { RunRecord } from '../../state/record/run-record.js';
import { copyContained } from './artifact-copy.js';
import { resolveInside } from '../workspace/workspace-paths.js';

/** Wave's alias folder for dependency artifacts in a project laid out the Wave way (its scripts read them there). */
const WAVE_OUTPUT_ALIAS_DIR = join('.agents', 'output');

/** One saved artifact of a dependency, as it lands in the consumer's workspace. */
export interface DependencyArtifact {
  dep: string;
  name: string;
  /** Absolute path of the saved copy in the run folder. */
  from: string;
  /** Path relative to the workspace: `<injected artifacts dir>/<dep>/<file>`. */
  to: string;
  file: string;
}

/**
 * Every saved artifact of each of the step's dependencies, as Wave injects them without an `inject_artifacts` entry
 * (internal/pipeline/depinject.go): at `<dir>/<dep>/<file>`, the file named as the dependency declared its path, or
 * by its saved name when that is taken or it came from stdout.
 */
export function dependencyArtifacts(plan: Pick<Plan, 'steps' | 'runtime'>, record: RunRecord, runDir: string, step: AttemptStep): DependencyArtifact[] {
  const placed: DependencyArtifact[] = [];
  for (const dep of step.dependencies) {
    const dependency = plan.steps.find((s) => s.id === dep);
    // A child pipeline's artifacts are named by the child: their saved names stand.
    const defs = dependency && isAttemptStep(dependency) ? dependency.outputArtifacts : [];
    const taken = new Set<string>();
    for (const saved of record.steps[dep]?.artifacts ?? []) {
      const from = join(runDir, saved.path);
      // A saved copy removed by hand since is the run folder's loss: the step runs without it, as Wave's does without one it cannot find.
      if (!existsSync(from)) continue;
      const def = defs.find((d) => d.name === saved.name);
      const declared = def?.source !== 'stdout' && def?.path ? basename(def.path) : undefined;
      const file = declared && !taken.has(declared) ? declared : basename(saved.path);
      taken.add(file);
      placed.push({ dep, name: saved.name, from, to: join(plan.runtime.injectedArtifactsDir, dep, file), file });
    }
  }
  return placed;
}

/** Copies the dependency artifacts into the workspace (and Wave's `.agents/output/` alias in a Wave-layout project). */
export async function injectDependencyArtifacts(workspace: string, artifacts: readonly DependencyArtifact[], injectedArtifactsDir: string): Promise<void> {
  const aliases = injectedArtifactsDir === WAVE_INJECTED_ARTIFACTS_DIR;
  for (const artifact of artifacts) {
    await copyContained(artifact.from, await destination(workspace, artifact.to), join(artifact.from, '..'), { artifact: artifact.name, path: artifact.from });
    const alias = join(WAVE_OUTPUT_ALIAS_DIR, artifact.file);
    // The alias never replaces a file the project itself has there.
    if (aliases && !existsSync(join(workspace, alias))) {
      await copyContained(artifact.from, await destination(workspace, alias), join(artifact.from, '..'), { artifact: artifact.name, path: artifact.from });
    }
  }
}

/** The variables Wave gives a step with dependencies: WAVE_DEPS_DIR and WAVE_DEP_<DEP>_<NAME> for each injected artifact. */
export function dependencyArtifactEnv(workspace: string, step: AttemptStep, artifacts: readonly DependencyArtifact[], injectedArtifactsDir: string): Record<string, string> {
  if (!step.dependencies.length) return {};
  const env: Record<string, string> = { WAVE_DEPS_DIR: join(workspace, injectedArtifactsDir) };
  for (const artifact of artifacts) env[`WAVE_DEP_${envSlug(artifact.dep)}_${envSlug(artifact.name)}`] = join(workspace, artifact.to);
  return env;
}

/** Upper case, every other character `_`: Wave's envSlug. */
function envSlug(text: string): string {
  return text.replace(/[a-z]/g, (c) => c.toUpperCase()).replace(/[^A-Z0-9]/g, '_');
}

async function destination(workspace: string, relativePath: string): Promise<string> {
  const dest = await resolveInside(workspace, relativePath);
  if (dest) return dest;
  // Only a symlink an earlier step left in the workspace can lead here.
  throw new WaveError('artifact_path_invalid', `dependency artifact destination ${relativePath} leads outside the step workspace`, {
    hint: 'Remove the symlink on that path from the workspace, or give the step a fresh workspace.',
  });
}
