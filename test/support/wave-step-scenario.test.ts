import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENTS_HEADING, contractRequirements } from '../../src/contracts/requirements.js';
import type { PlannedContract } from '../../src/contracts/types.js';
import { reviewPrompt } from '../../src/contracts/agent-review/review-prompt.js';
import { judgePrompt } from '../../src/contracts/llm-judge-check.js';
import { schemaErrors } from '../../src/json-schema/schema-validator.js';
import { startModelServer, type ModelServer } from './model-server.mjs';
import { patternSample, sampleOf } from './model-server/schema-sample.mjs';
import { FULL_SCORE, PASSING_REVIEW, requestedFiles } from './model-server/wave-step-scenario.mjs';

/** A schema using what Wave's contract schemas use: refs, patterns, formats, enums, bounds, dependencies, choices. */
const FINDINGS_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['findings', 'generated_at', 'repo'],
  additionalProperties: false,
  definitions: {
    finding: { type: 'object', required: ['id', 'severity'], properties: { id: { type: 'string', pattern: '^SEC-[0-9]{1,4}$' }, severity: { enum: ['high', 'low'] } } },
  },
  properties: {
    findings: { type: 'array', minItems: 2, items: { $ref: '#/definitions/finding' } },
    generated_at: { type: 'string', format: 'date-time' },
    repo: { type: 'string', pattern: '^[^/]+/[^/]+$' },
    score: { type: 'number', minimum: 0.5, maximum: 1 },
    summary: { type: 'string', minLength: 20 },
    owner: { type: ['string', 'null'] },
    mode: { oneOf: [{ type: 'integer', minimum: 3 }, { type: 'string' }] },
    flags: { allOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }, { properties: { b: { const: 'x' } } }] },
  },
  dependencies: { score: ['summary'] },
};

const schemaFile = (path: string, schema: Record<string, unknown>) => ({ type: 'json_schema', target: { kind: 'file', path }, schemaObject: schema }) as unknown as PlannedContract;
const nonEmptyFile = (path: string) => ({ type: 'non_empty_file', target: { kind: 'file', path } }) as unknown as PlannedContract;

describe('sampling a JSON Schema', () => {
  it('gives an instance valid against a schema of refs, patterns, formats, bounds, dependencies and choices', () => {
    const sample = sampleOf(FINDINGS_SCHEMA) as Record<string, unknown>;
    expect(schemaErrors(FINDINGS_SCHEMA, sample)).toEqual([]);
    expect((sample.findings as unknown[]).length).toBe(2);
  });

  it('writes strings that match the simple patterns contract schemas use', () => {
    for (const pattern of ['^T[0-9]{2}$', '^DVG-\\d{3}$', '^.*spec\\.md$', '^[A-Za-z0-9_.-][A-Za-z0-9_./-]*$', '^SRC-[0-9]{1,4}[A-Z]?$', '^(?:ab|cd)+x?$']) {
      expect(patternSample(pattern)).toMatch(new RegExp(pattern));
    }
  });
});

describe('the files a Wave step prompt asks for', () => {
  it("reads the requirements block and Wave's output artifact list, a schema file first, each path once", () => {
    const prompt = `\n## Output Artifacts\n\n- \`.agents/output/deep.md\` (as: deep)\n- \`out/findings.json\` (as: findings)\n\nWrite them.${contractRequirements([schemaFile('out/findings.json', FINDINGS_SCHEMA), nonEmptyFile('notes.txt')])}`;
    const { files, answer } = requestedFiles(prompt);
    expect(files.map((f) => f.path)).toEqual(['out/findings.json', 'notes.txt', '.agents/output/deep.md']);
    expect(schemaErrors(FINDINGS_SCHEMA, JSON.parse(files[0]!.content))).toEqual([]);
    expect(files[2]!.content).toMatch(/^# /);
    expect(answer).toBeUndefined();
  });

  it('answers with the sample when the final answer is what the schema checks', () => {
    const output = { type: 'json_schema', target: { kind: 'output' }, schemaObject: FINDINGS_SCHEMA } as unknown as PlannedContract;
    const { files, answer } = requestedFiles(`Review it.${contractRequirements([output])}`);
    expect(files).toEqual([]);
    expect(schemaErrors(FINDINGS_SCHEMA, JSON.parse(answer!))).toEqual([]);
    expect(REQUIREMENTS_HEADING).toBe('## Requirements your output is checked against');
  });
});

describe('the wavestep scenario through the Anthropic Messages API', () => {
  let server: ModelServer;
  beforeAll(async () => void (server = await startModelServer()));
  afterAll(() => server.close());

  const ask = async (messages: unknown[]): Promise<any> => {
    const response = await fetch(`${server.url}/s/wavestep/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', messages }),
    });
    const body = (await response.json()) as { content: any[] };
    return body.content[0];
  };

  it('writes each requested file in its own turn, then says what it wrote', async () => {
    const task = { role: 'user', content: [{ type: 'text', text: `Scan it.${contractRequirements([schemaFile('a.json', FINDINGS_SCHEMA), nonEmptyFile('b.md')])}` }] };
    const first = await ask([task]);
    expect(first).toMatchObject({ type: 'tool_use', name: 'Write', input: { file_path: 'a.json' } });
    expect(schemaErrors(FINDINGS_SCHEMA, JSON.parse(first.input.content))).toEqual([]);
    const written = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'File created' }] });
    const second = await ask([task, { role: 'assistant', content: [first] }, written(first.id)]);
    expect(second).toMatchObject({ type: 'tool_use', name: 'Write', input: { file_path: 'b.md' } });
    const last = await ask([task, { role: 'assistant', content: [first] }, written(first.id), { role: 'assistant', content: [second] }, written(second.id)]);
    expect(last).toEqual({ type: 'text', text: 'Wrote a.json, b.md.' });
  });

  it("passes a reviewer's review and gives a judge full marks", async () => {
    const review = await ask([{ role: 'user', content: reviewPrompt('The report is complete.', '# Report') }]);
    expect(JSON.parse(review.text)).toEqual(PASSING_REVIEW);
    const judge = { type: 'llm_judge', target: { kind: 'output' }, criteria: ['Names the risk'] } as unknown as PlannedContract;
    const score = await ask([{ role: 'user', content: judgePrompt(judge, 'The risk is X.') }]);
    expect(JSON.parse(score.text)).toEqual(FULL_SCORE);
  });
});
