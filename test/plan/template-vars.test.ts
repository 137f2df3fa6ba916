import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/config/schema/pipeline-schema.js';
import { explainUnknownVariable, templateValue, type TemplateSource } from '../../src/plan/template-vars.js';

const step = {
  id: 'review',
  exec: { type: 'prompt', source: '' },
  memory: {
    inject_artifacts: [
      { step: 'gen', artifact: 'plan' },
      { step: 'gen', artifact: 'report', as: 'report.json' },
    ],
  },
} as Step;
const ancestors = new Set(['gen', 'fetch']);
const explain = (name: string, projectKeys: string[] = ['language']) => explainUnknownVariable(name, step, ancestors, projectKeys);

describe('explainUnknownVariable', () => {
  it.each(['input', 'run.id', 'pipeline.name', 'step.id', 'project.language', 'artifacts.plan', 'artifacts.report.json', 'steps.gen.output', 'steps.fetch.output'])(
    'accepts %s',
    (name) => {
      expect(explain(name)).toBeUndefined();
    },
  );

  it.each([
    ['project.test_command', "`project.test_command` is not in the manifest's project block (known: project.language)"],
    ['project.language.x', "`project.language.x` is not in the manifest's project block (known: project.language)"],
    [
      'artifacts.report',
      "`artifacts.report` is not an artifact this step injects (known: artifacts.plan, artifacts.report.json; run as a child, it gets those its parent's step hands over with `config.inject`)",
    ],
    ['steps.gen', '`steps.gen`: use `steps.gen.output` or `steps.gen.output.<field>`'],
    ['steps.gen.stdout', '`steps.gen.stdout`: use `steps.gen.output` or `steps.gen.output.<field>`'],
    ['steps.later.output', '`steps.later.output` refers to a step that is not a dependency of `review` (dependencies: gen, fetch)'],
    ['inputs', '`inputs` is not a template variable (known: input, run.id, pipeline.name, step.id, project.*, artifacts.*, steps.<id>.output, forge.*, gate.<step>.*)'],
  ])('explains %s', (name, why) => {
    expect(explain(name)).toBe(why);
  });

  it.each([
    'forge.type',
    'forge.host',
    'forge.owner',
    'forge.repo',
    'forge.cli_tool',
    'forge.prefix',
    'forge.pr_term',
    'forge.pr_command',
    'pipeline_id',
    'pipeline_name',
    'step_id',
  ])("accepts Wave's %s", (name) => {
    expect(explain(name)).toBeUndefined();
  });

  it("accepts a gate's decision fields of a gate step it depends on, and explains the others", () => {
    const gates = new Set(['approve', 'later']);
    const gate = (name: string) => explainUnknownVariable(name, step, new Set([...ancestors, 'approve']), [], gates);
    expect(['gate.approve.choice', 'gate.approve.key', 'gate.approve.text', 'gate.approve.timestamp', 'gate.approve.target'].map(gate)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(gate('gate.later.choice')).toBe('`gate.later.choice` names no gate step `review` depends on (gates it depends on: approve)');
    expect(gate('gate.gen.choice')).toBe('`gate.gen.choice` names no gate step `review` depends on (gates it depends on: approve)');
    expect(gate('gate.approve.label')).toBe(
      "`gate.approve.label`: a gate's decision has gate.approve.choice, gate.approve.key, gate.approve.text, gate.approve.timestamp, gate.approve.target",
    );
    expect(gate('gate.approve.key.x')).toContain("a gate's decision has");
  });

  it('explains a forge variable Wave does not have', () => {
    expect(explain('forge.token')).toBe(
      '`forge.token` is not a forge variable (known: forge.type, forge.host, forge.owner, forge.repo, forge.cli_tool, forge.prefix, forge.pr_term, forge.pr_command)',
    );
  });

  it("gives Wave's bare names the values of run.id, pipeline.name and step.id, and forge.* the source's forge", () => {
    const source: TemplateSource = {
      input: 'i',
      runId: 'review-20260101-000000-abcd',
      pipelineName: 'review',
      stepId: 'scan',
      project: () => undefined,
      artifact: () => undefined,
      stepOutput: () => undefined,
      forge: (name) => ({ 'forge.cli_tool': 'glab' })[name],
      gate: (id, field) => `${id}:${field}`,
    };
    expect(templateValue('gate.approve.choice', source)).toBe('approve:choice');
    expect(templateValue('gate.approve.label', source)).toBeUndefined();
    expect(['pipeline_id', 'pipeline_name', 'step_id', 'forge.cli_tool', 'forge.type'].map((name) => templateValue(name, source))).toEqual([
      'review-20260101-000000-abcd',
      'review',
      'scan',
      'glab',
      undefined,
    ]);
  });

  it('says none when there is nothing to choose from', () => {
    expect(explainUnknownVariable('project.x', { id: 'a', exec: {} }, new Set(), [])).toBe("`project.x` is not in the manifest's project block (known: none)");
    expect(explainUnknownVariable('steps.b.output', { id: 'a', exec: {} }, new Set(), [])).toBe(
      '`steps.b.output` refers to a step that is not a dependency of `a` (dependencies: none)',
    );
  });
});
