import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverJson, withoutTrailingCommas } from '../../src/contracts/json-recovery.js';
import { checkJsonSchema } from '../../src/contracts/json-schema-check.js';

const schema = {
  type: 'object',
  required: ['verdict', 'findings'],
  properties: {
    verdict: { enum: ['approve', 'reject'] },
    findings: { type: 'array', items: { type: 'object', required: ['severity'], properties: { severity: { enum: ['high', 'low'] } } } },
  },
};

describe('JSON recovery', () => {
  it('takes plain JSON as is', () => {
    expect(recoverJson(' {"a": [1, 2]} ')).toMatchObject({ value: { a: [1, 2] }, how: 'parsed' });
  });

  it('recovers a json fence from prose, preferring it over other fences, dropping trailing commas', () => {
    const text = 'Run this:\n```sh\nnpm test\n```\nResult:\n```json\n{"verdict": "approve", "findings": [1, 2,],}\n```\nThanks!';
    expect(recoverJson(text)).toMatchObject({ value: { verdict: 'approve', findings: [1, 2] }, how: 'fenced+commas' });
  });

  it('recovers JSON embedded in prose, ignoring brackets inside strings', () => {
    expect(recoverJson('My answer is {"note": "a } and a ]", "n": 1} as requested.')?.value).toEqual({ note: 'a } and a ]', n: 1 });
  });

  it('keeps commas inside strings and finds nothing in plain prose', () => {
    expect(withoutTrailingCommas('{"a": "x,}", }')).toBe('{"a": "x,}" }');
    expect(recoverJson('no JSON here, sorry')).toBeUndefined();
  });

  it('recovers any JSON value wrapped in prose and a fence (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => v !== null && typeof v === 'object'),
        fc.string().filter((s) => !/[`{[]/.test(s)),
        (value, prose) => {
          const text = `${prose}\n\`\`\`json\n${JSON.stringify(value, null, 1)}\n\`\`\`\n${prose}`;
          expect(recoverJson(text)?.value).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
    );
  });
});

describe('the json_schema check', () => {
  it('passes valid JSON without rewriting it', () => {
    expect(checkJsonSchema(schema, { text: '{"verdict":"approve","findings":[]}', label: 'x' })).toEqual({ passed: true, errors: [] });
  });

  it('passes fenced JSON and returns the recovered text to write back', () => {
    const result = checkJsonSchema(schema, { text: 'Sure!\n```json\n{"verdict":"reject","findings":[{"severity":"high"},]}\n```', label: 'x' });
    expect(result.passed).toBe(true);
    expect(JSON.parse(result.recovered!)).toEqual({ verdict: 'reject', findings: [{ severity: 'high' }] });
  });

  it('fails with ajv instance paths and the allowed values', () => {
    const result = checkJsonSchema(schema, { text: '{"verdict":"maybe","findings":[{"severity":"urgent"}]}', label: 'x' });
    expect(result.passed).toBe(false);
    expect(result.errors).toEqual([
      '/verdict: must be equal to one of the allowed values (allowed: "approve", "reject")',
      '/findings/0/severity: must be equal to one of the allowed values (allowed: "high", "low")',
    ]);
  });

  it('fails a missing file and text without JSON, saying which', () => {
    expect(checkJsonSchema(schema, { label: 'out.json' }).errors).toEqual(['out.json does not exist']);
    expect(checkJsonSchema(schema, { text: 'I could not do it.', label: 'out.json' }).errors[0]).toMatch(/^out.json is not JSON and holds no JSON block/);
    expect(checkJsonSchema(schema, { text: '{"findings": []}', label: 'x' }).errors).toEqual(["(root): must have required property 'verdict'"]);
  });
});
