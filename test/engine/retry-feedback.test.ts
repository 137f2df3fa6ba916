import { describe, expect, it } from 'vitest';
import { contractFeedback, REJECTED_OUTPUT_CHARS } from '../../src/contracts/retry-feedback.js';
import { failureFeedback, promptWithFeedback, RETRY_OUTPUT_CHARS } from '../../src/engine/steps/retry-prompt.js';

describe("a retry's feedback, apart from the prompt it may follow", () => {
  it('failure feedback: the class, the message, the last output and what to do; never the original prompt', () => {
    const feedback = failureFeedback(2, { class: 'non_zero_exit', message: 'exit code 1' }, 'x'.repeat(RETRY_OUTPUT_CHARS + 50) + 'END');
    expect(feedback.split('\n').slice(0, 3)).toEqual(['## Previous attempt 2 failed', 'Failure class: non_zero_exit', 'Message: exit code 1']);
    expect(feedback).toContain(`${'x'.repeat(RETRY_OUTPUT_CHARS - 3)}END\n\`\`\``);
    expect(feedback.endsWith('Fix what caused this failure and complete the task.')).toBe(true);
    expect(failureFeedback(1, { class: 'timeout', message: 't' }, '')).not.toContain('Last output');
  });

  it('contract feedback: the contract, each error, the rejected output and what to do', () => {
    const feedback = contractFeedback(1, '1:json_schema', ['/a: must be string', '/b: required'], '{"a": 1}');
    expect(feedback).toBe(
      [
        '## Previous attempt 1 failed contract 1:json_schema',
        '- /a: must be string',
        '- /b: required',
        'Your previous output was:',
        '```',
        '{"a": 1}',
        '```',
        'Fix these problems and answer again; the same checks run on the new output.',
      ].join('\n'),
    );
    expect(contractFeedback(1, 'c', ['e'], ' \n')).not.toContain('Your previous output');
    expect(contractFeedback(1, 'c', ['e'], 'y'.repeat(REJECTED_OUTPUT_CHARS + 1))).toContain(`\`\`\`\n${'y'.repeat(REJECTED_OUTPUT_CHARS)}\n\`\`\``);
  });

  it('a fresh session gets the original prompt, a blank line, then the feedback (the layout retries always had)', () => {
    expect(promptWithFeedback('Do the task.', '## Previous attempt 1 failed\nFix it.')).toBe('Do the task.\n\n## Previous attempt 1 failed\nFix it.');
  });
});
