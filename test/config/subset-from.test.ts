import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { parseSubsetFrom } from '../../src/config/checks/subset-from.js';
import { makeProject } from '../support/project.js';

/** The problems of a pipeline whose step `scan` mounts `./` narrowed by `subsetFrom`, as [code, line, column, message]. */
async function problemsOf(subsetFrom: string, dependencies = '[fetch]') {
  const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: fetch
    exec: { type: command, source: "true" }
    output_artifacts: [{ name: ctx, path: ctx.json }]
  - id: other
    exec: { type: command, source: "true" }
  - id: scan
    dependencies: ${dependencies}
    workspace:
      mount:
        - { source: ./, target: /project, mode: readonly, subset_from: ${subsetFrom} }
    exec: { type: command, source: "true" }
`;
  const dir = makeProject({ 'pipelines/p.yaml': pipeline });
  const read = await readPipeline(join(dir, 'pipelines/p.yaml'), manifestView(await readManifest(join(dir, 'wave.yaml'), {})), {});
  return read.errors.map((e) => [e.code, e.location?.line, e.location?.column, e.message]);
}

describe('workspace.mount[].subset_from: `<step>.<artifact>.<json-path>`', () => {
  it('reads as Wave reads it: split at the first two dots, the rest keys with optional [N]', () => {
    expect(parseSubsetFrom('fetch-pr.pr-context.changed_files')).toEqual({ step: 'fetch-pr', artifact: 'pr-context', path: [{ key: 'changed_files' }] });
    expect(parseSubsetFrom('a.b.c[2].d')).toEqual({ step: 'a', artifact: 'b', path: [{ key: 'c', index: 2 }, { key: 'd' }] });
    for (const bad of ['a.b', 'a..c', '.b.c', 'a.b.', 'a.b.c[x]', 'a.b.c..d', 'a.b.[1]']) expect(parseSubsetFrom(bad), bad).toBeUndefined();
  });

  it('accepts an artifact its dependency declares', async () => {
    expect(await problemsOf('fetch.ctx.files')).toEqual([]);
  });

  it("accepts a step not in this pipeline: Wave's parent-pipeline artifact, which falls back to the whole source at run time", async () => {
    expect(await problemsOf('fetch-pr.pr-context.changed_files')).toEqual([]);
  });

  it('reports a malformed value, a step it does not depend on and an undeclared artifact, at the value', async () => {
    expect(await problemsOf('fetch.ctx')).toEqual([['wrong_type', 13, 72, '`subset_from: fetch.ctx` of step `scan` is not `<step>.<artifact>.<json-path>`']]);
    expect(await problemsOf('other.ctx.files')).toEqual([['unknown_dependency', 13, 72, 'step `scan` narrows a mount to an artifact of `other`, which it does not depend on']]);
    expect(await problemsOf('fetch.context.files')).toEqual([['unknown_artifact', 13, 72, 'step `fetch` declares no output artifact `context`']]);
  });
});
