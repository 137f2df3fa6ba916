/** How many differing lines a prompt diff shows at most. */
const SHOWN_LINES = 6;

/** A short diff of two prompts: the lines around the first difference, `-` recorded and `+` now, each cut to 160 characters. */
export function promptDiff(recorded: string, now: string): string {
  const before = recorded.split('\n');
  const after = now.split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const removed = before.slice(head, before.length - tail);
  const added = after.slice(head, after.length - tail);
  const lines = [`@@ line ${head + 1} @@`, ...cut(removed, '-'), ...cut(added, '+')];
  return lines.join('\n');
}

function cut(lines: readonly string[], mark: '-' | '+'): string[] {
  const shown = lines.slice(0, SHOWN_LINES).map((line) => `${mark} ${line.length > 160 ? `${line.slice(0, 159)}…` : line}`);
  return lines.length > SHOWN_LINES ? [...shown, `${mark} … ${lines.length - SHOWN_LINES} more line(s)`] : shown;
}
