import { describe, expect, it } from 'vitest';
import { lastLineReporter } from '../../src/engine/steps/output-line.js';

describe("a running command's last line", () => {
  it('passes on a changed line at most once a second, and never an empty one', () => {
    let now = 0;
    const shown: string[] = [];
    const report = lastLineReporter(
      (line) => shown.push(line),
      () => now,
    );
    report({ kind: 'output', bytes: 6, lastLine: 'first' });
    now = 400;
    report({ kind: 'output', bytes: 7, lastLine: 'second' });
    now = 1_000;
    report({ kind: 'output', bytes: 7, lastLine: 'second' });
    now = 2_100;
    report({ kind: 'output', bytes: 7, lastLine: 'second' });
    report({ kind: 'output', bytes: 1, lastLine: '' });
    report({ kind: 'output', bytes: 1 });
    now = 3_200;
    report({ kind: 'output', bytes: 6, lastLine: 'third' });
    expect(shown).toEqual(['first', 'second', 'third']);
  });
});
