import { describe, expect, it } from 'vitest';
import { renderStepCommand, type TemplateValues } from '../../src/engine/steps/render-prompt.js';
import type { AttemptStep } from '../../src/plan/plan-types.js';

const VALUES: TemplateValues = { runId: 'r', pipelineName: 'p', input: '$(touch PWNED)', project: {}, artifacts: {}, outputs: new Map(), forge: {}, gate: () => undefined };
const render = (template: string) => renderStepCommand({ id: 's', kind: 'command' } as AttemptStep, template, VALUES);

describe("a command's value reference, written for where it sits", () => {
  it.each([
    ['echo {{ input }}', 'echo "$WAVE_VALUE_1"'],
    ["PIPELINE='{{ input }}'", `PIPELINE=''"$WAVE_VALUE_1"''`],
    ["echo 'a {{ input }} b'", `echo 'a '"$WAVE_VALUE_1"' b'`],
    ['echo "a {{ input }} b"', 'echo "a ${WAVE_VALUE_1} b"'],
    ['cat <<EOF\na {{ input }} "b"\nEOF', 'cat <<EOF\na ${WAVE_VALUE_1} "b"\nEOF'],
    ['cat <<EOF\n$(printf %s {{ input }})\nEOF', 'cat <<EOF\n$(printf %s "$WAVE_VALUE_1")\nEOF'],
  ])('%j -> %j', (template, command) => {
    expect(render(template)).toEqual({ command, values: ['$(touch PWNED)'] });
  });

  it('gives one slot per variable, whatever quoting each reference sits in', () => {
    expect(render('echo {{ input }} "{{ input }}" \'{{ run.id }}\'')).toEqual({
      command: 'echo "$WAVE_VALUE_1" "${WAVE_VALUE_1}" \'\'"$WAVE_VALUE_2"\'\'',
      values: ['$(touch PWNED)', 'r'],
    });
  });

  it.each(["cat <<'EOF'\n{{ input }}\nEOF", "echo $'{{ input }}'"])('%j: refuses where the shell expands nothing (validate refuses it first)', (template) => {
    expect(() => render(template)).toThrow(/a template value cannot be put inside/);
  });
});
