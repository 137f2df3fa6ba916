import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ACTION_INPUTS } from '../../src/action/inputs.js';
import { ACTION_OUTPUTS } from '../../src/action/outputs.js';
import { ROOT } from '../support/cli.js';

interface ActionMetadata {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

describe('action.yml', () => {
  const content = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const action = parse(content) as ActionMetadata;

  it('passes GitHub’s action schema, with a description for every input and output', () => {
    const parsed = parseAction({ name: 'action.yml', content }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors()).toEqual([]);
    const template = convertActionTemplate(parsed.context, parsed.value!);
    expect(template.description).not.toBe('');
    for (const entry of [...(template.inputs ?? []), ...(template.outputs ?? [])]) expect(entry.description?.trim(), entry.id).toBeTruthy();
    // GitHub never uses the default of a required input: one that has a default is optional.
    for (const input of template.inputs ?? []) expect(input.required === true && input.default !== undefined, input.id).toBe(false);
  });

  it('declares exactly the inputs the entry reads, pipeline required and fail-on-error on by default', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...ACTION_INPUTS].sort());
    expect(action.inputs.pipeline?.required).toBe(true);
    expect(action.inputs['fail-on-error']?.default).toBe('true');
  });

  it('declares exactly the outputs the entry sets', () => {
    expect(Object.keys(action.outputs).sort()).toEqual([...ACTION_OUTPUTS].sort());
  });

  it('runs the committed bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'action/index.cjs' });
    expect(existsSync(join(ROOT, action.runs.main))).toBe(true);
  });
});

describe('.github/workflows/wave.yml', () => {
  const content = readFileSync(join(ROOT, '.github/workflows/wave.yml'), 'utf8');

  it('parses and converts with no errors', async () => {
    const parsed = parseWorkflow({ name: '.github/workflows/wave.yml', content }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors()).toEqual([]);
    expect(parsed.value).toBeDefined();
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
    expect(template.errors ?? []).toEqual([]);
    expect(template.jobs.length).toBe(1);
  });

  it('runs pipelines/hello.yaml through this repository’s action on push and pull_request', () => {
    const workflow = parse(content) as { on: Record<string, unknown>; jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> };
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const wave = Object.values(workflow.jobs)[0]!.steps.find((step) => step.uses === './');
    expect(wave?.with?.pipeline).toBe('pipelines/hello.yaml');
  });
});
