/** Wave's `workspace.mount[].subset_from`: `<step>.<artifact>.<json-path>`, read as Wave reads it (split at the first two dots). */
export interface SubsetFrom {
  step: string;
  artifact: string;
  /** Keys from the artifact's JSON root to the list, each with an optional `[N]` list index (Wave's `field[N]`). */
  path: ReadonlyArray<{ key: string; index?: number }>;
}

const SEGMENT = /^([^[\]]+)(?:\[(\d+)\])?$/;

/** The parts of a `subset_from` value, or undefined when it is not `<step>.<artifact>.<json-path>`. */
export function parseSubsetFrom(text: string): SubsetFrom | undefined {
  const first = text.indexOf('.');
  const second = first < 0 ? -1 : text.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1 || second === text.length - 1) return undefined;
  const path: Array<{ key: string; index?: number }> = [];
  for (const segment of text.slice(second + 1).split('.')) {
    const match = SEGMENT.exec(segment);
    if (!match) return undefined;
    path.push(match[2] === undefined ? { key: match[1]! } : { key: match[1]!, index: Number(match[2]) });
  }
  return { step: text.slice(0, first), artifact: text.slice(first + 1, second), path };
}
