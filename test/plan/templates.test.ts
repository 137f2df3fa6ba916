import { describe, expect, it } from 'vitest';
import { lineColumnAt, renderTemplate, templateReferences } from '../../src/plan/templates.js';

describe('templateReferences', () => {
  it('finds every reference in order, with its name, offset and text as written', () => {
    const template = 'Fix {{input}} in {{ project.language }}\nthen {{  steps.gen-1.output.title  }}.';
    expect(templateReferences(template)).toEqual([
      { name: 'input', offset: 4, text: '{{input}}' },
      { name: 'project.language', offset: 17, text: '{{ project.language }}' },
      { name: 'steps.gen-1.output.title', offset: 45, text: '{{  steps.gen-1.output.title  }}' },
    ]);
  });

  it('ignores what is not a name between braces', () => {
    expect(templateReferences('{{ }} {{ 1abc }} {{ a b }} {{ a..b }} { input } {{input}')).toEqual([]);
  });
});

describe('renderTemplate', () => {
  const values: Record<string, string> = { input: 'the {{ secret }}', secret: 'leaked', 'run.id': 'r-1' };
  const lookup = (name: string) => values[name];

  it('replaces known references and keeps unknown ones as written', () => {
    expect(renderTemplate('run {{ run.id }}: {{ unknown }}', lookup)).toBe('run r-1: {{ unknown }}');
  });

  it('never scans an inserted value again, so a value cannot inject a reference', () => {
    expect(renderTemplate('{{ input }}', lookup)).toBe('the {{ secret }}');
  });

  it('passes each value through insert with its name', () => {
    expect(renderTemplate('{{input}} / {{ run.id }}', lookup, (value, name) => `<${name}=${value}>`)).toBe('<input=the {{ secret }}> / <run.id=r-1>');
  });
});

describe('lineColumnAt', () => {
  it.each([
    [0, { line: 1, column: 1 }],
    [2, { line: 1, column: 3 }],
    [3, { line: 1, column: 4 }],
    [4, { line: 2, column: 1 }],
    [9, { line: 3, column: 1 }],
    [10, { line: 3, column: 2 }],
  ])('offset %i of "abc\\ndefg\\nhi" is %j', (offset, expected) => {
    expect(lineColumnAt('abc\ndefg\nhi', offset)).toEqual(expected);
  });
});
