import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobIdsOf } from '../../src/compile/job-ids.js';
import { ROOT } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { ASSEMBLE_JOB, PART_ARTIFACT_PREFIX, RUN_ARTIFACT } from '../../src/compile/github-workflow.js';
import { actionInputsByGithub, compile, parsedByGithub, planOf } from './compiled.js';

/** A 20-step DAG: each step depends on up to three earlier ones; every fourth step is optional; some ids need renaming. */
function bigPipeline(): { text: string; deps: Map<string, string[]>; optional: Set<string> } {
  const ids = Array.from({ length: 20 }, (_, i) => (i % 7 === 3 ? `s.${i}` : i === 5 ? `5th` : `s${i}`));
  const deps = new Map<string, string[]>();
  const optional = new Set<string>();
  const steps = ids.map((id, i) => {
    const d = [...new Set([i - 1, i - 3, Math.floor(i / 2) - 1].filter((j) => j >= 0 && j < i).map((j) => ids[j]!))];
    deps.set(id, d);
    if (i % 4 === 2) optional.add(id);
    return `  - id: ${JSON.stringify(id)}\n    dependencies: ${JSON.stringify(d)}\n    optional: ${optional.has(id)}\n    exec: { type: command, source: "echo ${i}" }\n`;
  });
  return { text: `kind: WavePipeline\nmetadata: { name: big }\nsteps:\n${steps.join('')}`, deps, optional };
}

describe('compiled workflows read by GitHub', () => {
  const shipped = readdirSync(join(ROOT, 'pipelines')).filter((f) => f.endsWith('.yaml'));

  it.each(shipped)('pipelines/%s parses with no errors and one job per step, needs as the dependencies', async (file) => {
    const plan = await planOf(join(ROOT, 'wave.yaml'), join(ROOT, 'pipelines', file));
    const { errors, jobs } = await parsedByGithub(compile(plan, ROOT));
    expect(errors).toEqual([]);
    const ids = jobIdsOf(plan.steps.map((s) => s.id));
    for (const step of plan.steps) expect(jobs.get(ids.get(step.id)!)?.needs).toEqual(step.dependencies.map((d) => ids.get(d)));
    expect(jobs.size).toBe(plan.steps.length + 1);
  });

  it('a 20-step DAG with optional steps and unsafe ids parses, its needs match the DAG, and the final job needs every step', async () => {
    const big = bigPipeline();
    const dir = makeProject({ 'pipelines/big.yaml': big.text });
    const plan = await planOf(join(dir, 'wave.yaml'), join(dir, 'pipelines/big.yaml'));
    const { errors, jobs } = await parsedByGithub(compile(plan, dir, 'continue'));
    expect(errors).toEqual([]);
    const ids = jobIdsOf([...big.deps.keys()]);
    expect(new Set(ids.values()).size).toBe(20);
    for (const [id, deps] of big.deps) {
      const job = jobs.get(ids.get(id)!)!;
      expect(job.needs).toEqual(deps.map((d) => ids.get(d)));
      for (const d of deps) {
        const accepted = big.optional.has(d) ? `(needs.${ids.get(d)}.result == 'success' || needs.${ids.get(d)}.result == 'failure')` : `needs.${ids.get(d)}.result == 'success'`;
        expect(job.if).toContain(accepted);
      }
    }
    const final = [...jobs.entries()].find(([, j]) => j.needs.length === 20);
    expect(final?.[1].if).toBe('always()');
  });
});

describe('artifacts of a compiled workflow', () => {
  it('every upload overwrites an artifact of the same name: re-running failed jobs uploads again under the names of the first attempt', async () => {
    const plan = await planOf(join(ROOT, 'wave.yaml'), join(ROOT, 'pipelines', 'hello.yaml'));
    const uploads = actionInputsByGithub(compile(plan, ROOT), 'actions/upload-artifact');
    const ids = jobIdsOf(plan.steps.map((s) => s.id));
    expect([...uploads.keys()].sort()).toEqual([...ids.values(), ASSEMBLE_JOB].sort());
    for (const [jobId, inputs] of uploads) {
      const name = jobId === ASSEMBLE_JOB ? RUN_ARTIFACT : `${PART_ARTIFACT_PREFIX}${jobId}`;
      expect(inputs).toEqual([expect.objectContaining({ name, overwrite: 'true' })]);
    }
  });
});

describe('the parser used above', () => {
  it('does report a workflow GitHub would refuse (a need that is no job)', async () => {
    const { errors } = await parsedByGithub('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: [nope]\n    steps: [{ run: "true" }]\n');
    expect(errors.length).toBeGreaterThan(0);
  });
});
