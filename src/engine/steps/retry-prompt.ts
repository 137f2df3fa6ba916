import type { Failure } from '../../core/errors/failure.js';

/** How much of the failed attempt's output a retry's prompt carries. */
export const RETRY_OUTPUT_CHARS = 2000;

/** What a retry is told about a failed attempt: its class, message and last output, and to fix it. */
export function failureFeedback(attempt: number, failure: Failure, outputTail: string): string {
  const tail = outputTail.slice(-RETRY_OUTPUT_CHARS);
  return [
    `## Previous attempt ${attempt} failed`,
    `Failure class: ${failure.class}`,
    `Message: ${failure.message}`,
    ...(tail ? ['Last output:', '```', tail, '```'] : []),
    'Fix what caused this failure and complete the task.',
  ].join('\n');
}

/** The prompt of a retry in a fresh session: the original, then the feedback (a continued session gets the feedback alone). */
export function promptWithFeedback(prompt: string, feedback: string): string {
  return `${prompt}\n\n${feedback}`;
}
