/** How much of the rejected output a contract retry's prompt shows. */
export const REJECTED_OUTPUT_CHARS = 2000;

/** The prompt of a contract retry: the original, the contract that failed and exactly why, and the rejected output. */
export function promptWithContractErrors(prompt: string, attempt: number, label: string, errors: readonly string[], output: string): string {
  const shown = output.slice(-REJECTED_OUTPUT_CHARS);
  return [
    prompt,
    '',
    `## Previous attempt ${attempt} failed contract ${label}`,
    ...errors.map((e) => `- ${e}`),
    ...(shown.trim() ? ['Your previous output was:', '```', shown, '```'] : []),
    'Fix these problems and answer again; the same checks run on the new output.',
  ].join('\n');
}
