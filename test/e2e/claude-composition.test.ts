import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { attemptFile, claudeManifest, cliAvailable, param, reviewedPipeline, runEvents, startModelServer, type ModelServer } from './agents.js';
import { agentPipeline, copierPipeline, iteratePipeline, recordOf, recordsOf, requestsHolding, runFile, runOf, stepArtifact } from './composition.js';

// Child pipelines, iterate, aggregate, branch and an agent_review contract, run by `wave run` with the real Claude Code.

const available = cliAvailable('claude');

/** Five items over two child pipelines; `locked` in place of the third item's pipeline makes it fail. */
const items = (third = 'left') => JSON.stringify(['left:ab', 'right:cd', `${third}:ef`, 'right:gh', 'left:ij'].map((s) => ({ p: s.split(':')[0], w: s.split(':')[1] })));

/** A parent whose step runs, in parallel, the child each item names, with `iterate` keys added. */
const fan = (name: string, over: string, iterate: string) =>
  iteratePipeline(name, `over: '${over}', mode: parallel, max_concurrent: 2${iterate}`, '"{{ item.p }}"', '"{{ item.w }}-{{ iteration }}"');

const HANDOFF = `kind: WavePipeline
metadata: { name: handoff }
steps:
  - id: sub
    pipeline: noter
    input: "a note from the child"
  - id: read
    persona: reader
    dependencies: [sub]
    memory: { inject_artifacts: [{ step: sub, artifact: note, as: got }] }
    exec: { type: prompt, source: "The child wrote {{ steps.sub.output }}; print {{ artifacts.got }}." }
`;

/** Reads the note of the pipeline `noter` that ran before it (`wave compose noter publisher`). */
const PUBLISHER = `kind: WavePipeline
metadata: { name: publisher }
steps:
  - id: read
    persona: reader
    memory: { inject_artifacts: [{ pipeline: noter, artifact: note, as: got }] }
    exec: { type: prompt, source: "Print {{ artifacts.got }}." }
`;

const MERGED = iteratePipeline(
  'merged',
  `over: '[["a","b"],["c"]]', mode: parallel`,
  'lister',
  '"{{ item }}"',
  `  - id: merge
    dependencies: [each]
    aggregate: { from: "{{ each.out.collected-output }}", into: .agents/output/merged-findings.json, strategy: merge_arrays }
  - id: route
    dependencies: [merge]
    branch: { on: "{{ env.profile }}", cases: { core: skip, default: noter } }
    input: "merged {{ merge.out.merged-findings }}"
  - id: quiet
    dependencies: [merge]
    branch: { on: "{{ input }}", cases: { core: skip, default: noter } }
  - id: read
    persona: reader
    dependencies: [route, quiet]
    memory: { inject_artifacts: [{ step: merge, artifact: merged-findings, as: got }] }
    exec: { type: prompt, source: "Print {{ artifacts.got }}." }
`,
);

/** A child whose step answers (fixonfeedback: a marked first answer, a fixed one once told why) under a critic's agent_review. */
const REVIEWED = reviewedPipeline('        on_failure: retry\n        max_retries: 1').replace('name: p', 'name: reviewed');

const cycle = (name: string, child: string) =>
  `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n  - id: ask\n    persona: copier\n    exec: { type: prompt, source: "Write <<x>> into out.txt." }\n  - id: go\n    dependencies: [ask]\n    pipeline: ${child}\n`;

// Each test runs several Claude processes one after another on a shared machine: more time than one run's default.
describe.skipIf(!available)('claude: composition steps with the real Claude Code', { timeout: 180_000 }, () => {
  let server: ModelServer;
  let project: string;
  beforeAll(async () => {
    server = await startModelServer();
    const manifest = claudeManifest(
      {
        copier: `${server.url}/s/copy/out.txt`,
        reader: `${server.url}/s/shell/${param('cat .wave/artifacts/got')}`,
        locked: `${server.url}/s/http401`,
        writer: `${server.url}/s/fixonfeedback/composition`,
        critic: `${server.url}/s/review`,
      },
      ['copier', 'reader', 'locked', 'writer', 'critic'].map((p) => `  ${p}: { adapter: ${p} }`).join('\n'),
      '  max_concurrency: 2\n',
    );
    project = makeProject({
      'wave.yaml': manifest,
      'criteria.md': 'The answer must be final: its verdict is approve.',
      'pipelines/noter.yaml': copierPipeline('noter', '{{ input }}'),
      'pipelines/left.yaml': copierPipeline('left', 'left {{ input }}', 'value'),
      'pipelines/right.yaml': copierPipeline('right', 'right {{ input }}', 'value'),
      'pipelines/lister.yaml': copierPipeline('lister', '{{ input }}', 'list'),
      'pipelines/locked.yaml': agentPipeline('locked', 'locked', 'Answer.'),
      'pipelines/reviewed.yaml': REVIEWED,
      'pipelines/handoff.yaml': HANDOFF,
      'pipelines/publisher.yaml': PUBLISHER,
      'pipelines/fan.yaml': fan('fan', items(), ''),
      'pipelines/tolerant.yaml': fan('tolerant', items('locked'), ', on_failure: continue'),
      'pipelines/merged.yaml': MERGED,
      'pipelines/checked.yaml': `kind: WavePipeline\nmetadata: { name: checked }\nsteps:\n  - id: rev\n    pipeline: reviewed\n`,
      'pipelines/a.yaml': cycle('a', 'b'),
      'pipelines/b.yaml': cycle('b', 'a'),
    });
  });
  afterAll(() => server?.close());

  const run = async (pipeline: string, input?: string) => {
    const result = await runWave(['run', pipeline, '--output', 'text', ...(input ? ['--input', input] : [])], { cwd: project, timeout: 280_000 });
    return { ...result, parent: runOf(project, pipeline) };
  };

  it("a child's Claude step writes a file; the parent's next step gets it as the child step's artifact and output", async () => {
    const { code, stdout, stderr, parent } = await run('handoff');
    expect(code, stdout + stderr).toBe(0);
    const child = recordOf(project, parent.steps.sub!.children![0]!.runId);
    expect(child).toMatchObject({ parentId: parent.id, parentStepId: 'sub', childKind: 'sub_pipeline', status: 'completed', input: 'a note from the child' });
    // Claude's Write tool made the file in the child's workspace; it came back as the parent step's artifact.
    expect(stepArtifact(project, child, 'write', 'note')).toBe('a note from the child');
    expect(stepArtifact(project, parent, 'sub', 'note')).toBe('a note from the child');
    expect(parent.steps.sub!.children).toEqual([{ runId: child.id, pipeline: 'noter', status: 'completed' }]);
    // The next step's prompt held the child's output, and its Bash tool printed the injected artifact.
    const prompt = (JSON.parse(attemptFile(project, parent, 'read', 1, 'attempt.json')) as { prompt: string }).prompt;
    expect(prompt).toMatch(/The child wrote a note from the child; print \S+\/read\/\.wave\/artifacts\/got\./);
    expect(runFile(project, parent.id, 'steps/read/output.txt')).toContain('The command ran: a note from the child');
  });

  it("`wave compose` runs a child's Claude step, then hands the file it wrote to the next pipeline's Claude step", async () => {
    const composed = await runWave(['compose', '--input', 'a composed note', '--output', 'text', 'noter', 'publisher'], { cwd: project, timeout: 280_000 });
    expect(composed.code, composed.stdout + composed.stderr).toBe(0);
    const composition = recordsOf(project).find((r) => r.pipeline === 'compose noter then publisher')!;
    const [noter, publisher] = ['noter', 'publisher'].map((step) => recordOf(project, composition.steps[step]!.children![0]!.runId));
    expect(stepArtifact(project, noter!, 'write', 'note')).toBe('a composed note');
    expect(publisher).toMatchObject({ parentId: composition.id, status: 'completed' });
    // Claude's Bash tool in the publisher's step printed the note Claude wrote in the noter's.
    expect(runFile(project, publisher!.id, 'steps/read/output.txt')).toContain('The command ran: a composed note');
  });

  it('iterates five items in parallel over two child pipelines: one Claude run per item, values collected in item order', async () => {
    const { code, stdout, stderr, parent } = await run('fan');
    expect(code, stdout + stderr).toBe(0);
    const expected = ['left ab-0', 'right cd-1', 'left ef-2', 'right gh-3', 'left ij-4'];
    // The step's `collected-output` in the run's store, as `{{ each.out.collected-output }}` reads it.
    expect(parent.steps.each!.artifacts).toEqual([expect.objectContaining({ name: 'collected-output', path: 'artifacts/each/collected-output.json' })]);
    expect(stepArtifact(project, parent, 'each', 'collected-output')).toBe(JSON.stringify(expected));
    const children = [...parent.steps.each!.children!].sort((a, b) => a.item! - b.item!);
    expect(children.map((c) => [c.item, c.pipeline, c.status])).toEqual(expected.map((v, i) => [i, v.split(' ')[0], 'completed']));
    // Each value is its own child's: that run's input, its Claude conversation, the file its Write tool made.
    for (const [i, child] of children.entries()) {
      const record = recordOf(project, child.runId);
      expect(record).toMatchObject({ parentId: parent.id, childKind: 'iterate_item', input: expected[i]!.split(' ')[1] });
      expect(stepArtifact(project, record, 'write', 'value')).toBe(expected[i]);
      expect(requestsHolding(server.requests, `<<${expected[i]}>>`).length).toBeGreaterThan(0);
    }
    expect(new Set(children.map((c) => c.runId)).size).toBe(5);
    // At most max_concurrent children at once.
    const spans = children.map((c) => recordOf(project, c.runId)).map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt!)] as const);
    expect(Math.max(...spans.map(([start]) => spans.filter(([s, end]) => s <= start && start < end).length))).toBeLessThanOrEqual(2);
  });

  it('with on_failure: continue, an item whose Claude run fails is a null slot and failed child; its siblings complete', async () => {
    const { code, stdout, stderr, parent } = await run('tolerant');
    expect(code, stdout + stderr).toBe(0);
    expect(parent.status).toBe('completed');
    expect(parent.steps.each!.status).toBe('completed');
    expect(stepArtifact(project, parent, 'each', 'collected-output')).toBe('["left ab-0","right cd-1",null,"right gh-3","left ij-4"]');
    const children = [...parent.steps.each!.children!].sort((a, b) => a.item! - b.item!);
    expect(children.map((c) => [c.item, c.pipeline, c.status])).toEqual([
      [0, 'left', 'completed'],
      [1, 'right', 'completed'],
      [2, 'locked', 'failed'],
      [3, 'right', 'completed'],
      [4, 'left', 'completed'],
    ]);
    // The failed item is Claude's own failure (the endpoint refused its key), recorded in its child run.
    const failed = recordOf(project, children[2]!.runId);
    expect(failed.status).toBe('failed');
    expect(failed.steps.work!.failure?.class).toBe('auth_failed');
  });

  it("aggregates the iterate's lists with merge_arrays; a branch takes its default arm, another skips", async () => {
    const { code, stdout, stderr, parent } = await run('merged', 'core');
    expect(code, stdout + stderr).toBe(0);
    expect(stepArtifact(project, parent, 'each', 'collected-output')).toBe('[["a","b"],["c"]]');
    expect(parent.steps.merge!.artifacts).toEqual([expect.objectContaining({ name: 'merged-findings', path: 'artifacts/merge/merged-findings.json' })]);
    expect(stepArtifact(project, parent, 'merge', 'merged-findings')).toBe('["a","b","c"]');
    // `{{ env.profile }}` names nothing here: the default arm ran, a child Claude run given the merged list.
    const [arm] = parent.steps.route!.children!;
    expect(recordOf(project, arm!.runId)).toMatchObject({ pipeline: 'noter', childKind: 'branch_arm', status: 'completed', input: 'merged ["a","b","c"]' });
    expect(stepArtifact(project, parent, 'route', 'note')).toBe('merged ["a","b","c"]');
    // The input `core` takes the skip case: nothing ran, and the step after both went on.
    expect(parent.steps.quiet).toMatchObject({ status: 'completed', artifacts: [] });
    expect(parent.steps.quiet!.children).toBeUndefined();
    expect(runFile(project, parent.id, 'steps/read/output.txt')).toContain('The command ran: ["a","b","c"]');
    expect(
      recordsOf(project)
        .filter((r) => r.parentId === parent.id)
        .map((r) => r.pipeline)
        .sort(),
    ).toEqual(['lister', 'lister', 'noter']);
  });

  it("a child's agent_review fails Claude's first answer, the child's step retries, and the second answer passes", async () => {
    const { code, stdout, stderr, parent } = await run('checked');
    expect(code, stdout + stderr).toBe(0);
    const child = recordOf(project, parent.steps.rev!.children![0]!.runId);
    expect(child).toMatchObject({ pipeline: 'reviewed', status: 'completed' });
    const step = child.steps.work!;
    expect(step.attempts).toHaveLength(2);
    expect(step.reviews?.map((r) => [r.attempt, r.status, r.verdict])).toEqual([
      [1, 'failed', 'fail'],
      [2, 'passed', 'pass'],
    ]);
    const reviews = runEvents(project, child).filter((e) => e.type.startsWith('review_'));
    expect(reviews.map((e) => [e.type, e.attempt, e.verdict])).toEqual([
      ['review_started', 1, undefined],
      ['review_failed', 1, 'fail'],
      ['review_started', 2, undefined],
      ['review_completed', 2, 'pass'],
    ]);
    // The parent step's artifact is the reviewed attempt's (a stdout artifact: Claude's stream), not the first.
    const output = stepArtifact(project, parent, 'rev', 'out');
    expect(output).toContain('{\\"verdict\\": \\"approve\\"');
    expect(output).not.toContain('FIRST-ANSWER-QX7');
  });

  it('refuses a cycle of child pipelines (a → b → a) in `wave validate`, naming the chain', async () => {
    const result = await runWave(['validate', 'pipelines/a.yaml'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toContain('a → b → a');
    expect(result.stdout + result.stderr).toContain('pipeline_cycle');
  });
});
