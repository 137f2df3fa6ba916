import { describe, expect, it } from 'vitest';
import type { AttemptStep } from '../../src/plan/plan-types.js';
import type { PreparedStep } from '../../src/engine/workspace/step-files.js';
import { reworkContext, reworkEnv, withReworkContext, REWORK_OUTPUT_CHARS } from '../../src/engine/steps/rework-context.js';

const failed = { id: 'implement', kind: 'agent' } as AttemptStep;
const failure = { class: 'contract_failed', message: 'contract 1:test_suite go test failed: FAIL pkg' } as const;
const work = { output: 'out', tail: 'ran go test\n```\nFAIL pkg', attempts: 2, durationMs: 61_400, artifacts: ['plan'] };

describe("a rework step's context", () => {
  it('opens with the failed step, its attempts, failure, artifacts and output end, fenced so the output cannot close the fence', () => {
    const text = reworkContext(failed, 2, failure, work);
    expect(text).toBe(
      [
        '## REWORK CONTEXT',
        'The step `implement` failed, and this step runs to fix its work (rework round 2); its checks run again once this step completes.',
        '- Attempts: 2, over 61 s',
        '- Failure class: contract_failed',
        '- Error: contract 1:test_suite go test failed: FAIL pkg',
        '- Artifacts it saved: plan',
        '',
        'The end of its last output:',
        '````',
        'ran go test\n```\nFAIL pkg',
        '````',
        '',
        'Fix what caused this failure.',
        '',
      ].join('\n'),
    );
  });

  it('shows only the last characters of a long output, and no output section when there is none', () => {
    const long = reworkContext(failed, 1, failure, { ...work, tail: `${'a'.repeat(REWORK_OUTPUT_CHARS)}END` });
    expect(long).toContain(`${'a'.repeat(REWORK_OUTPUT_CHARS - 3)}END\n`);
    expect(long).not.toContain('a'.repeat(REWORK_OUTPUT_CHARS + 1));
    expect(reworkContext(failed, 1, failure, { ...work, tail: '  ', artifacts: [] })).not.toMatch(/last output|Artifacts/);
  });

  it("goes before an agent's prompt, and into every attempt's environment; a command keeps its text", () => {
    const rework = { of: 'implement', round: 1, context: 'CONTEXT\n', env: reworkEnv(failed, 1, failure) };
    const agent = { prompt: 'Fix it.', dependencyEnv: { WAVE_DEPS_DIR: 'deps' } } as unknown as PreparedStep;
    withReworkContext({ id: 'fix', kind: 'agent' } as AttemptStep, agent, rework);
    expect(agent.prompt).toBe('CONTEXT\n\nFix it.');
    expect(agent.dependencyEnv).toEqual({
      WAVE_DEPS_DIR: 'deps',
      WAVE_REWORK_OF: 'implement',
      WAVE_REWORK_ROUND: '1',
      WAVE_REWORK_FAILURE: 'contract_failed: contract 1:test_suite go test failed: FAIL pkg',
    });
    const command = { prompt: 'make fix', dependencyEnv: {} } as unknown as PreparedStep;
    withReworkContext({ id: 'fix', kind: 'command' } as AttemptStep, command, rework);
    expect(command.prompt).toBe('make fix');
    expect(command.dependencyEnv.WAVE_REWORK_OF).toBe('implement');
  });
});
