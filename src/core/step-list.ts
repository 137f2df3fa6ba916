/** Parses a comma-separated list of step ids (--steps, --exclude, and the Action's inputs of the same names). */
export function stepList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
