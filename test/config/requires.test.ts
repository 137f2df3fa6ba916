import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { planProject } from '../plan/plan-project.js';

const STEPS = `steps:
  - id: a
    exec: { type: command, source: "true" }
`;

/** The problems of pipeline p (with the shell manifest plus `project`), as [code, line, message]. */
async function problemsOf(requires: string) {
  const dir = makeProject({ 'wave.yaml': `${SHELL_MANIFEST}project: { forge_cli: gh }\n`, 'pipelines/p.yaml': `kind: WavePipeline\nmetadata: { name: p }\n${requires}${STEPS}` });
  const read = await readPipeline(join(dir, 'pipelines/p.yaml'), manifestView(await readManifest(join(dir, 'wave.yaml'), {})), {});
  return read.errors.map((e) => [e.code, e.location?.line, e.message, e.hint]);
}

describe('requires: what a pipeline needs on the machine', () => {
  it("accepts Wave's tools list and skills with check, optional and commands_glob", async () => {
    const requires = `requires:
  tools: [gh, jq, "{{ project.forge_cli }}"]
  skills:
    speckit: { check: specify check, optional: true, commands_glob: ".claude/commands/speckit.*.md" }
`;
    expect(await problemsOf(requires)).toEqual([]);
  });

  it('accepts a skill installer and init command: they run only after the opt-in, in the sandbox (test/sandbox/skill-setup.e2e.test.ts)', async () => {
    const requires = `requires:
  skills:
    speckit:
      install: uv tool install specify-cli
      init: specify init --here
      check: specify check
`;
    expect(await problemsOf(requires)).toEqual([]);
  });

  it('needs a check for a required skill (Wave counts a skill without one as missing), not for an optional one', async () => {
    const problems = await problemsOf('requires:\n  skills:\n    speckit: {}\n    extra: { optional: true }\n');
    expect(problems).toEqual([
      [
        'missing_field',
        5,
        '`requires.skills.speckit` has no `check`, so it could never be found installed',
        'Add `check:` with a command that exits 0 when the skill is installed (e.g. `specify check`), or `optional: true`.',
      ],
    ]);
  });

  it('refuses a tool that is not a program name, a template other than {{ project.<key> }}, a bad skill name and a glob out of the project', async () => {
    const requires = `requires:
  tools: ["gh auth", "{{ input }}"]
  skills:
    "a/b": { check: "true" }
    c: { check: "true", commands_glob: "../elsewhere/*.md" }
`;
    expect((await problemsOf(requires)).map(([code, line]) => [code, line])).toEqual([
      ['wrong_type', 4],
      ['template_invalid', 4],
      ['wrong_type', 6],
      ['wrong_type', 7],
    ]);
  });

  it('plans tools with {{ project.<key> }} filled (an unset one drops the tool), skills sorted with Wave’s default commands glob', async () => {
    const { plan } = await planProject({
      manifest: `${SHELL_MANIFEST}project: { forge_cli: gh }\n`,
      pipeline: `kind: WavePipeline\nmetadata: { name: p }\nrequires:\n  tools: [jq, "{{ project.forge_cli }}", "{{ project.unset }}", jq]\n  skills:\n    zeta: { check: "true" }\n    alpha: { check: "false", optional: true, commands_glob: "cmds/*.md" }\n${STEPS}`,
    });
    expect(plan.requires.tools.map((t) => [t.name, t.location.line])).toEqual([
      ['jq', 4],
      ['gh', 4],
    ]);
    expect(plan.requires.skills.map(({ location: _, ...s }) => s)).toEqual([
      { name: 'alpha', check: 'false', optional: true, commandsGlob: 'cmds/*.md' },
      { name: 'zeta', check: 'true', optional: false, commandsGlob: join('.claude', 'commands', 'zeta.*.md') },
    ]);
  });
});
