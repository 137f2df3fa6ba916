import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, attemptFile, attemptStream, claudeManifest, cliAvailable, oneStepPipeline, param, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

describe.skipIf(!available)('claude: a real run through Claude Code', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("step 1 writes a file with Claude's own Write tool, step 2 reads it as an injected artifact", async () => {
    const content = 'line one from step one\n';
    const manifest = claudeManifest(
      { writer: `${server.url}/s/write/notes.txt/${param(content)}`, reader: `${server.url}/s/shell/${param('cat .wave/artifacts/notes')}` },
      '  writer: { adapter: writer, system_prompt_file: personas/writer.md, skills: [note-style] }\n  reader: { adapter: reader }',
    );
    const pipeline = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: write
    persona: writer
    exec: { type: prompt, source: "Write notes.txt." }
    output_artifacts:
      - { name: notes, path: notes.txt }
      - { name: skill, path: .claude/skills/note-style/SKILL.md }
      - { name: skill-marker, path: .claude/skills/note-style/.wave-skill }
  - id: read
    persona: reader
    dependencies: [write]
    memory: { inject_artifacts: [{ step: write, artifact: notes, as: notes }] }
    exec: { type: prompt, source: "Print {{ artifacts.notes }}." }
`;
    const run = await runAgentPipeline(manifest, pipeline, {
      'personas/writer.md': 'You write notes.\n',
      'personas/base-protocol.md': 'BASE PROTOCOL MARKER\n',
      'skills/note-style/SKILL.md': '---\nname: note-style\ndescription: How notes are written.\n---\nWrite short notes.\n',
    });
    expect(run.code, run.stderr).toBe(0);
    const write = run.record.steps.write!;
    expect(write.status).toBe('completed');
    // The file exists because Claude executed its Write tool, not because anything else wrote it.
    const artifact = write.artifacts.find((a) => a.name === 'notes');
    expect(artifact).toBeDefined();
    expect(readFileSync(artifactPath(run, artifact!.path), 'utf8')).toBe(content);
    // The persona's skill was copied into Claude's skills folder of the workspace, with Wave's marker.
    const skillFiles = ['skill', 'skill-marker'].map((name) => write.artifacts.find((a) => a.name === name));
    expect(skillFiles.every(Boolean)).toBe(true);
    const [skill, marker] = skillFiles.map((a) => artifactPath(run, a!.path));
    expect(readFileSync(skill!, 'utf8')).toContain('Write short notes.');
    expect(existsSync(marker!)).toBe(true);
    const writeStdout = attemptFile(run.project, run.record, 'write', 1, 'stdout');
    // Claude itself found the skill: its init event lists it.
    const init = writeStdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((o) => o.type === 'system' && o.subtype === 'init');
    expect(init.skills).toContain('note-style');
    expect(writeStdout).toContain('"name":"Write"');
    expect(writeStdout).toContain('File created successfully');
    // Step 2's Bash tool printed the injected file, and its answer carries the text on.
    expect(run.record.steps.read!.status).toBe('completed');
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'read', 'output.txt'), 'utf8')).toContain('line one from step one');
    // Tokens are kept apart; Claude's own price estimate is not a cost for a model served on this machine.
    expect(write.tokens.input).toBeGreaterThan(0);
    expect(write.tokens.output).toBeGreaterThan(0);
    expect(write.tokens.cacheRead).toBeGreaterThan(0);
    expect(write.tokens.cacheWrite).toBeGreaterThan(0);
    expect(attemptStream(run, 'write', 'result')[0]!.total_cost_usd).toBeGreaterThan(0);
    expect(write.costUsd).toBeUndefined();
    // Live tool activity: the tool's name and its target.
    const toolUses = run.events.filter((e) => e.type === 'step_event' && e.event.kind === 'tool_use');
    expect(toolUses.map((e) => [e.stepId, e.event.name, e.event.target])).toEqual([
      ['write', 'Write', 'notes.txt'],
      ['read', 'Bash', 'cat .wave/artifacts/notes'],
    ]);
    // The persona prompt, with the base protocol before it, reached the model as part of the system prompt.
    const firstWrite = server.requests.find((r) => r.scenario === 'write' && r.body);
    const system = JSON.stringify(firstWrite!.body!.system);
    expect(system).toContain('BASE PROTOCOL MARKER');
    expect(system).toContain('You write notes.');
    // Isolated: the config home is in the attempt folder.
    expect(existsSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'write', 'attempt-1', 'home'))).toBe(true);
  });

  it('a persona that denies a command: Claude itself refuses it, visible in its own stream', async () => {
    const manifest = claudeManifest(
      { guarded: `${server.url}/s/shell/${param('touch made.txt')}` },
      '  guarded:\n    adapter: guarded\n    permissions: { allowed_tools: ["*"], deny: ["Bash(touch *)"] }',
    );
    const run = await runAgentPipeline(
      manifest,
      `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: guarded
    exec: { type: prompt, source: "Touch made.txt." }
`,
    );
    expect(run.code, run.stderr).toBe(0);
    const stream = attemptStream(run, 'work');
    const result = stream.find((o) => o.type === 'result')!;
    expect(result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: expect.objectContaining({ command: 'touch made.txt' }) })]);
    const denied = run.events.find((e) => e.type === 'step_event' && e.event.kind === 'system' && e.event.subtype === 'permission_denied');
    expect(denied?.event.message).toContain('touch made.txt');
    // The rule Claude enforced is the persona's: allowed_tools "*" ran it without prompts, the deny rule still bound.
    const init = stream.find((o) => o.type === 'system' && o.subtype === 'init')!;
    expect(init.permissionMode).toBe('bypassPermissions');
    expect(run.record.steps.work!.filesChanged ?? []).toEqual([]);
    expect(run.events.some((e) => e.type === 'step_event' && e.event.kind === 'tool_result' && e.event.isError)).toBe(true);
  });

  it('a truncated stream: Claude asks again without streaming and the step succeeds', async () => {
    const manifest = claudeManifest({ cut: `${server.url}/s/truncated` }, '  cut: { adapter: cut }');
    const run = await runAgentPipeline(
      manifest,
      `kind: WavePipeline
metadata: { name: p }
steps:
  - id: work
    persona: cut
    exec: { type: prompt, source: "Answer." }
`,
    );
    expect(run.code, run.stderr).toBe(0);
    const asked = server.requests.filter((r) => r.scenario === 'truncated' && r.body);
    expect(asked.some((r) => r.body!.stream === true)).toBe(true);
    expect(asked.some((r) => r.body!.stream === false)).toBe(true);
    expect(readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'work', 'output.txt'), 'utf8')).toContain('{"verdict": "appro');
  });

  it('--json shows the running tokens of each assistant message before the step ends, and the result total at the end', async () => {
    const manifest = claudeManifest({ shell: `${server.url}/s/shell/${param('echo hi')}` }, '  runner: { adapter: shell }');
    const run = await runAgentPipeline(manifest, oneStepPipeline('runner'));
    expect(run.code, run.stderr).toBe(0);
    const printed = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);
    const result = printed.findIndex((e) => e.type === 'step_event' && e.event.kind === 'result');
    const completed = printed.findIndex((e) => e.type === 'step_completed');
    const running = printed.flatMap((e, i) => (e.type === 'step_tokens' ? [{ i, tokens: e.tokens, costUsd: e.costUsd }] : []));
    // Two model requests: each assistant message raised the totals while Claude was still working.
    const early = running.filter((r) => r.i < result);
    expect(early.length).toBeGreaterThanOrEqual(2);
    expect(early[0]!.tokens.input).toBeGreaterThan(0);
    expect(early[1]!.tokens.input).toBeGreaterThan(early[0]!.tokens.input);
    // The result's usage is the total: the last running figure equals it and the completed step's, not their sum.
    const last = running.at(-1)!;
    expect(last.i).toBeLessThan(completed);
    expect(last.tokens).toEqual(printed[result]!.event.tokens);
    expect(last.tokens).toEqual(printed[completed]!.tokens);
    expect(last.costUsd).toBe(printed[completed]!.costUsd);
  });
});
