import { describe, expect, it } from 'vitest';
import { createLocator } from '../../src/config/load/locator.js';
import { fileOfAddress, loopBodyAddress, loopBodyOf, parseLoopBodyAddress } from '../../src/config/load/loop-body.js';
import { parseYamlSource } from '../../src/config/load/yaml-source.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: fix }
skills: [go]
input: { source: cli }
steps:
  - id: prep
    exec: { type: command, source: "true" }
  - id: again
    loop:
      max_iterations: 3
      steps:
        - id: work
          exec: { type: command, source: "echo {{ iteration }} {{input}}" }
        - id: each
          pipeline: "child-{{ iteration }}"
          input: "{{ iteration }}"
          iterate: { over: '[{{ iteration }}]' }
        - id: inner
          loop:
            max_iterations: 2
            until: "{{ iteration }}"
            steps:
              - id: deep
                exec: { type: command, source: "echo {{ iteration }}" }
`;

function read(address: string) {
  const source = parseYamlSource(PIPELINE, 'fix.yaml');
  return loopBodyOf(source.doc.toJS(), createLocator(source), address);
}

describe('a loop body', () => {
  it('is named by an address of its pipeline file, its loop step and its iteration, nested loops within', () => {
    const outer = loopBodyAddress('/p/fix.yaml', 'again', 2);
    expect(outer).toBe('/p/fix.yaml::again::2');
    expect(parseLoopBodyAddress(outer)).toEqual({ file: '/p/fix.yaml', stepId: 'again', iteration: 2 });
    const inner = loopBodyAddress(outer, 'inner', 0);
    expect(parseLoopBodyAddress(inner)).toEqual({ file: outer, stepId: 'inner', iteration: 0 });
    expect(fileOfAddress(inner)).toBe('/p/fix.yaml');
    expect(parseLoopBodyAddress('/p/fix.yaml')).toBeUndefined();
  });

  it("is a pipeline of the loop's sub-steps with the pipeline's skills, `{{ iteration }}` written in but for an iterate's per-item fields and a nested loop", () => {
    const body = read('fix.yaml::again::2').raw as { metadata: unknown; skills: unknown; input?: unknown; steps: Array<Record<string, unknown>> };
    expect(body.metadata).toEqual({ name: 'fix.again' });
    expect(body.skills).toEqual(['go']);
    expect(body.input).toBeUndefined();
    expect(body.steps.map((s) => s.id)).toEqual(['work', 'each', 'inner']);
    expect(body.steps[0]!.exec).toEqual({ type: 'command', source: 'echo 2 {{input}}' });
    expect(body.steps[1]).toMatchObject({ pipeline: 'child-{{ iteration }}', input: '{{ iteration }}', iterate: { over: '[2]' } });
    expect(body.steps[2]!.loop).toMatchObject({ until: '{{ iteration }}' });
    const nested = read('fix.yaml::again::2::inner::1').raw as { metadata: unknown; steps: Array<Record<string, unknown>> };
    expect(nested.metadata).toEqual({ name: 'fix.again.inner' });
    expect(nested.steps[0]!.exec).toEqual({ type: 'command', source: 'echo 1' });
  });

  it("points its locations into the pipeline's file, and is refused when that file has no such loop step", () => {
    const { locator } = read('fix.yaml::again::0');
    expect(locator.locate(['steps', 1, 'iterate', 'over'])).toMatchObject({ file: 'fix.yaml', line: 17, column: 28 });
    expect(locator.locate(['metadata', 'name'])).toMatchObject({ line: 2, column: 19 });
    expect(() => read('fix.yaml::prep::0')).toThrow('the pipeline has no loop step `prep`');
  });
});
