import { join } from 'node:path';
import { loadManifest, loadPipeline } from '../../src/config/load/load.js';
import { buildPlan, type PlanOptions } from '../../src/plan/plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { makeProject } from '../support/project.js';

/** A throwaway project: its wave.yaml, pipelines/p.yaml and any other files it needs. */
export interface PlanProject {
  manifest: string;
  pipeline: string;
  files?: Record<string, string>;
}

/** Loads a throwaway project the way `wave run` does and builds its plan; returns the plan and the project folder. */
export async function planProject(project: PlanProject, options: Partial<PlanOptions> = {}): Promise<{ plan: Plan; dir: string }> {
  const dir = makeProject({ ...project.files, 'wave.yaml': project.manifest, 'pipelines/p.yaml': project.pipeline });
  // An empty environment: nothing of the machine running the tests reaches the plan.
  const manifest = await loadManifest(join(dir, 'wave.yaml'), {});
  const pipeline = await loadPipeline(join(dir, 'pipelines/p.yaml'), manifest, {});
  return { plan: buildPlan(manifest, pipeline, { input: '', ...options }), dir };
}

/** A pipeline named p of the given steps, each a YAML flow mapping written on one line. */
export function pipelineOf(...steps: string[]): string {
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps.map((step) => `  - ${step}\n`).join('')}`;
}
