/** How much of the rejected output a contract retry's prompt shows. */
export const REJECTED_OUTPUT_CHARS = 2000;

/** What a contract retry is told: the contract that failed and exactly why, the rejected output, and to answer again. */
export function contractFeedback(attempt: number, label: string, errors: readonly string[], output: string): string {
  const shown = output.slice(-REJECTED_OUTPUT_CHARS);
  return [
    `## Previous attempt ${attempt} failed contract ${label}`,
    ...errors.map((e) => `- ${e}`),
    ...(shown.trim() ? ['Your previous output was:', '```', shown, '```'] : []),
    'Fix these problems and answer again; the same checks run on the new output.',
  ].join('\n');
}
