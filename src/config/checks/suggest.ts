/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one edit each. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Optimal string alignment: three rows of the classic table.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrevious[j - 2]! + 1);
      current[j] = best;
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate closest to `name`, when it is close enough to be a likely typo. */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  // Long inputs are never typos of a short key; comparing them would only cost time.
  if (name.length > 64) return undefined;
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** A hint: "Did you mean `x`?" when one candidate is close, else `Label: a, b, c.` (or `Label: none.`); `label` starts with a capital. */
export function didYouMean(name: string, candidates: readonly string[], label: string): string {
  const match = closestMatch(name, candidates);
  if (match !== undefined) return `Did you mean \`${match}\`?`;
  if (candidates.length === 0) return `${label}: none.`;
  const shown = candidates
    .slice(0, 12)
    .map((c) => `\`${c}\``)
    .join(', ');
  return `${label}: ${shown}${candidates.length > 12 ? ', …' : ''}.`;
}
