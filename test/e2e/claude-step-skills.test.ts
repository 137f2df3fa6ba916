import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptFile, attemptStream, claudeManifest, cliAvailable, param, runAgentPipeline, startModelServer, type ModelServer } from './agents.js';

const available = cliAvailable('claude');

/** A SKILL.md Claude Code accepts: frontmatter with the name and a description. */
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nUse ${name}.\n`;

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
skills: [pipeline-skill]
requires:
  skills:
    speckit: { check: "test -f wave.yaml" }
steps:
  - id: audit
    persona: auditor
    skills: [step-skill]
    max_concurrent_agents: 4
    exec: { type: prompt, source: "List your skills and commands." }
`;

describe.skipIf(!available)('claude: skills and agent concurrency reach a real Claude Code', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server?.close());

  it("a step's own skill (from .agents/skills/), the pipeline's and the persona's land in .claude/skills/; the required skill's commands in .claude/commands/", async () => {
    const listing = 'ls .claude/skills .claude/commands';
    const manifest = claudeManifest(
      { auditor: `${server.url}/s/shell/${param(listing)}` },
      '  auditor: { adapter: auditor, system_prompt_file: personas/auditor.md, skills: [persona-skill] }',
    );
    const run = await runAgentPipeline(manifest, PIPELINE, {
      'personas/auditor.md': 'You audit.\n',
      'skills/persona-skill/SKILL.md': skill('persona-skill'),
      'skills/pipeline-skill/SKILL.md': skill('pipeline-skill'),
      '.agents/skills/step-skill/SKILL.md': skill('step-skill'),
      '.claude/commands/speckit.plan.md': 'Plan the feature.\n',
    });
    expect(run.code, run.stderr).toBe(0);
    const stdout = attemptFile(run.project, run.record, 'audit', 1, 'stdout');
    // Claude Code itself found the three skills in its skills folder of the workspace.
    const init = attemptStream(run, 'audit', 'system').find((o) => o.subtype === 'init')!;
    expect(init.skills).toEqual(expect.arrayContaining(['persona-skill', 'pipeline-skill', 'step-skill']));
    // Its Bash tool listed them in the workspace, with the command file beside them.
    const output = readFileSync(join(run.project, '.wave', 'runs', run.record.id, 'steps', 'audit', 'output.txt'), 'utf8');
    for (const name of ['persona-skill', 'pipeline-skill', 'step-skill', 'speckit.plan.md']) expect(output).toContain(name);
    expect(stdout).toContain(`"command":"${listing}"`);
    // max_concurrent_agents: 4 reached the model in the system prompt, as Wave's concurrency hint.
    const request = server.requests.find((r) => r.scenario === 'shell' && r.body);
    const system = JSON.stringify(request!.body!.system);
    expect(system).toContain('You audit.');
    expect(system).toContain('## Agent Concurrency');
    expect(system).toContain('You may spawn up to 4 concurrent sub-agents or workers for this step.');
    // A real CLI on a busy machine: more than the default minute, well inside the run's own limit.
  }, 180_000);
});
