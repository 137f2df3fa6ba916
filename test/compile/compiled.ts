import { NoOperationTraceWriter, isMapping, isScalar, isSequence, isString, parseWorkflow } from '@actions/workflow-parser';
import { compileGithubWorkflow } from '../../src/compile/github-workflow.js';
import { loadManifest, loadPipeline } from '../../src/config/load/load.js';
import { buildPlan } from '../../src/plan/plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { readAsGithub } from '../support/workflow-reader.mjs';

/** The plan of a pipeline file under a manifest, with the pipeline's default input. */
export async function planOf(manifestFile: string, pipelineFile: string): Promise<Plan> {
  const manifest = await loadManifest(manifestFile);
  const pipeline = await loadPipeline(pipelineFile, manifest);
  return buildPlan(manifest, pipeline, { input: pipeline.value.input?.default ?? '' });
}

/** A compiled workflow as GitHub's own parser reads it: its errors, and each job's needs, `if:` and Environment. */
export async function parsedByGithub(yamlText: string) {
  const { errors, template } = await readAsGithub(yamlText);
  const jobs = new Map(
    (template?.jobs ?? []).map((job) => [
      job.id.value,
      {
        needs: (job.needs ?? []).map((n) => n.value),
        if: job.if.expression,
        environment: 'environment' in job && job.environment && isString(job.environment) ? job.environment.value : undefined,
      },
    ]),
  );
  return { errors, jobs };
}

/** The `with:` of every step of every job that uses `action` (owner/name, any version), as GitHub's parser reads the workflow (inputs are strings). */
export function actionInputsByGithub(yamlText: string, action: string): Map<string, Record<string, string>[]> {
  const parsed = parseWorkflow({ name: '.github/workflows/wave.yml', content: yamlText }, new NoOperationTraceWriter());
  const found = new Map<string, Record<string, string>[]>();
  const jobs = parsed.value && isMapping(parsed.value) ? parsed.value.find('jobs') : undefined;
  if (!jobs || !isMapping(jobs)) return found;
  for (const { key, value: job } of jobs) {
    const steps = isMapping(job) ? job.find('steps') : undefined;
    if (!steps || !isSequence(steps)) continue;
    for (const step of steps) {
      const uses = isMapping(step) ? step.find('uses') : undefined;
      if (!isMapping(step) || !uses || !isScalar(uses) || uses.toString().split('@')[0] !== action) continue;
      const inputs = step.find('with');
      const values: Record<string, string> = {};
      if (inputs && isMapping(inputs)) for (const pair of inputs) values[pair.key.toString()] = isScalar(pair.value) ? pair.value.toString() : '';
      found.set(key.toString(), [...(found.get(key.toString()) ?? []), values]);
    }
  }
  return found;
}

/** Every expression GitHub evaluates in a workflow, as written between `${{` and `}}` (each part of a string with several separately). */
export async function expressionsByGithub(yamlText: string): Promise<string[]> {
  return (await readAsGithub(yamlText)).expressions;
}

/** Compiles a plan whose repository is `repoRoot`. */
export function compile(plan: Plan, repoRoot: string, onFailure: 'halt' | 'continue' = 'halt'): string {
  return compileGithubWorkflow(plan, { repoRoot, onFailure });
}
