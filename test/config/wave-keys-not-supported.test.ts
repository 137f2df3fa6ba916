import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/** Every problem of `steps` (a pipeline's steps block) as [code, line, message up to its first parenthesis]. */
async function problems(steps: string, manifest = SHELL_MANIFEST): Promise<Array<[string, number | undefined, string]>> {
  const dir = makeProject({ 'wave.yaml': manifest, 'p.yaml': `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${steps}` });
  projects.push(dir);
  const view = manifestView(await readManifest(join(dir, 'wave.yaml'), {}));
  const read = await readPipeline(join(dir, 'p.yaml'), view, {});
  return read.errors.map((e) => [e.code, e.location?.line, e.message.split(' (')[0]!]);
}

const COMMAND = 'exec: { type: command, source: "true" }';

describe("Wave's keys of features not built here are named not_supported, never unknown_key or wrong_type", () => {
  it("a step's `config` and `input` (a child pipeline's): with a child that does not exist, without a `pipeline`, and with a `branch` whose case names none", async () => {
    expect(
      await problems(`  - id: child
    pipeline: impl-issue-core
    input: "{{ input }}"
    config: { env: { profile: core } }
  - id: alone
    config: { env: {} }
    ${COMMAND}
  - id: publish
    branch: { on: "{{ input }}", cases: { core: skip, default: ops-pr-review-publish } }
    input: "{{ input }}"
`),
    ).toEqual([
      ['file_not_found', 5, 'step `child` runs the child pipeline `impl-issue-core`, which is neither a file nor a name in pipelines/ or .agents/pipelines/'],
      ['missing_field', 9, "step `alone` sets `config`, which is a child pipeline's, but has no `pipeline`"],
      ['file_not_found', 12, 'step `publish` runs the child pipeline `ops-pr-review-publish`, which is neither a file nor a name in pipelines/ or .agents/pipelines/'],
    ]);
  });

  it("a child pipeline's `config.stop_condition` with a warning; its `config.inject` and `config.max_cycles` are checked, not refused", async () => {
    const dir = makeProject({ 'pipelines/child.yaml': `kind: WavePipeline\nmetadata: { name: child }\nsteps:\n  - id: a\n    ${COMMAND}\n` });
    projects.push(dir);
    const file = join(dir, 'pipelines', 'parent.yaml');
    writeFileSync(
      file,
      `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n  - id: sub\n    pipeline: child\n    config: { inject: [notes], max_cycles: 2, stop_condition: done }\n`,
    );
    const read = await readPipeline(file, manifestView(await readManifest(join(dir, 'wave.yaml'), {})), {});
    expect(read.errors.map((e) => [e.code, e.message.split(' (')[0]])).toEqual([
      ['unknown_artifact', 'step `sub` hands its child `notes`, which no step it depends on declares'],
      ['conflicting_fields', 'step `sub` sets `config.max_cycles`, but the child `child` has no loop step without a `max_iterations` of its own, so it would do nothing'],
    ]);
    expect(read.warnings.map((w) => [w.code, w.message.split(' (')[0]])).toEqual([['not_supported', 'step `config.stop_condition`']]);
  });

  it("a step on Wave's built-in `browser` adapter, which needs no declaration in the manifest (it is built now)", async () => {
    const step = `  - id: capture
    adapter: browser
    exec: { source: '[{"action": "screenshot"}]' }
`;
    expect(await problems(step)).toEqual([]);
    expect(await problems(step, SHELL_MANIFEST.replace('adapters:\n', 'adapters:\n  browser: { type: process, binary: cat }\n'))).toEqual([]);
    expect(await problems(step.replace('browser', 'browsr'))).toEqual([['unknown_adapter', 5, 'step `capture` names adapter `browsr`, which the manifest does not declare']]);
  });
});

describe('what only follows from a feature not built here is not reported on top of it', () => {
  it("an iterate step's collection, never checked before it runs, and an aggregate's one artifact, named after its file", async () => {
    expect(
      await problems(`  - id: each
    iterate: { over: "[1, 2]", mode: parallel }
    pipeline: audit-x
  - id: merge
    dependencies: [each]
    aggregate: { from: "{{ each.output }}", into: merged.json, strategy: merge_arrays }
  - id: report
    dependencies: [merge, each]
    memory:
      inject_artifacts:
        - { step: merge, artifact: merged-findings }
        - { step: each, artifact: collected-output }
    ${COMMAND}
`),
    ).toEqual([
      ['file_not_found', 6, 'step `each` runs the child pipeline `audit-x`, which is neither a file nor a name in pipelines/ or .agents/pipelines/'],
      ['unknown_artifact', 14, 'step `merge` declares no output artifact `merged-findings`'],
    ]);
  });

  it('a step whose `exec` a feature not built here takes: no missing `exec` on top, and its artifacts can still be injected', async () => {
    expect(
      await problems(`  - id: fixup
    exec: { type: slash_command, source: /fix }
    output_artifacts: [{ name: patch, path: patch.diff }]
  - id: ship
    dependencies: [fixup]
    memory: { inject_artifacts: [{ step: fixup, artifact: patch }] }
    ${COMMAND}
`),
    ).toEqual([['not_supported', 5, '`exec.type: slash_command`']]);
  });

  it('still reports a wrong reference beside it', async () => {
    expect(
      await problems(`  - id: merge
    exec: { type: slash_command, source: /merge }
    output_artifacts: [{ name: out, path: out.md }]
  - id: report
    dependencies: [merge, mrege]
    memory: { inject_artifacts: [{ step: merge, artifact: out }, { step: mrege, artifact: out }] }
    ${COMMAND}
`),
    ).toEqual([
      ['not_supported', 5, '`exec.type: slash_command`'],
      ['unknown_dependency', 8, 'step `report` depends on `mrege`, which is not a step of this pipeline'],
      ['unknown_dependency', 9, 'step `report` injects an artifact from `mrege`, which is not a step of this pipeline'],
    ]);
  });
});

describe('rework and rejected runs load, checked as Wave checks them', () => {
  it('a contract on_failure of rejected or rework, and rework_step, in handover.contract and handover.contracts', async () => {
    expect(
      await problems(`  - id: assess
    ${COMMAND}
    handover:
      contract: { type: non_empty_file, source: a.md, on_failure: rejected }
  - id: fix
    ${COMMAND}
    handover:
      contracts:
        - { type: non_empty_file, source: b.md, on_failure: rework, rework_step: assess }
        - { type: non_empty_file, source: c.md, rework_step: assess }
        - { type: non_empty_file, source: d.md, on_failure: rework }
  - id: redo
    rework_only: true
    ${COMMAND}
    retry: { on_failure: rework, rework_step: redo }
  - id: after
    dependencies: [fix]
    retry: { on_failure: rework, rework_step: redo }
    ${COMMAND}
  - id: later
    dependencies: [after]
    retry: { on_failure: rework, rework_step: redo, max_attempts: 2 }
    ${COMMAND}
`),
    ).toEqual([
      ['wrong_type', 12, "the rework step `assess` of step `fix` is not `rework_only`, so it would also run in the run's order"],
      ['conflicting_fields', 13, "step `fix`: the contract's `rework_step` does nothing unless `on_failure` is `rework`"],
      ['missing_field', 14, 'a contract of step `fix` has `on_failure: rework` but no `rework_step`'],
      ['dag_cycle', 18, 'step `redo` names itself as its rework step'],
      ['conflicting_fields', 18, 'the rework step `redo` names a rework step of its own, `redo`'],
      ['conflicting_fields', 25, 'the rework step `redo` is the retry.rework_step of both `after` and `later`'],
    ]);
  });
});
