import type { Failure } from '../core/failure.js';

/** How much of the failed attempt's output a retry's prompt carries. */
export const RETRY_OUTPUT_CHARS = 2000;

/** The prompt of a retry: the original, plus what went wrong last time. */
export function promptWithFailure(prompt: string, attempt: number, failure: Failure, outputTail: string): string {
  const tail = outputTail.slice(-RETRY_OUTPUT_CHARS);
  return [
    prompt,
    '',
    `## Previous attempt ${attempt} failed`,
    `Failure class: ${failure.class}`,
    `Message: ${failure.message}`,
    ...(tail ? ['Last output:', '```', tail, '```'] : []),
    'Fix what caused this failure and complete the task.',
  ].join('\n');
}
