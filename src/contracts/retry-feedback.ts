/** The part of a retry's prompt that says which contract failed and exactly why. */
export function contractFeedback(label: string, errors: readonly string[]): string {
  return [`The output failed contract ${label}:`, ...errors.map((e) => `- ${e}`), 'Fix these problems; the same checks run again.'].join('\n');
}
