import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { didYouMean } from '../src/config/checks/suggest.js';
import { diskFaultHint } from '../src/io-error.js';
import { ROOT } from './support/cli.js';

/** A hint reads as one capitalised sentence: it starts with a capital letter and ends with a full stop (or a question mark). */
const SENTENCE = /^[A-Z][\s\S]*[.?]$/;

/** The `.ts` files under a folder, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The literals an expression can evaluate to, up to the end of the property or statement it starts: those at its
 * start or after `?`, `:`, `??` or `||` (an argument, or a value compared with `===`, is no hint).
 */
function literalsOf(text: string): string[] {
  const literals: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const before = text.slice(0, i).trimEnd();
    const isValue = depth === 0 && (before === '' || /(\?|:|\?\?|\|\|)$/.test(before));
    if (c === "'" || c === '`' || c === '"') {
      let j = i + 1;
      let nested = 0;
      while (j < text.length && !(text[j] === c && nested === 0 && text[j - 1] !== '\\')) {
        if (c === '`' && text.startsWith('${', j)) nested++;
        else if (c === '`' && nested > 0 && text[j] === '}') nested--;
        j++;
      }
      if (isValue) literals.push(text.slice(i + 1, j));
      i = j;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if ((c === ',' || c === ';' || c === '\n') && depth === 0) break;
  }
  return literals;
}

/** Every hint written out in the source: the literals after `hint:`, of a `…HINT =` constant, or returned by a `…Hint(` function. */
function sourceHints(): Array<{ where: string; text: string }> {
  const hints: Array<{ where: string; text: string }> = [];
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const source = readFileSync(file, 'utf8');
    // `hint: ${…}` inside a template literal prints a hint; it writes none.
    const starts = [...source.matchAll(/\bhint: (?!string|z\.|\$\{)|\b[A-Z_]*HINT = /g)].map((m) => m.index + m[0].length);
    for (const body of source.matchAll(/function \w*Hint\([^)]*\)[^{]*\{([\s\S]*?)\n\}/g)) {
      for (const ret of body[1]!.matchAll(/return /g)) starts.push(body.index + body[0].indexOf(body[1]!) + ret.index + ret[0].length);
    }
    for (const start of starts) {
      const line = source.slice(0, start).split('\n').length;
      for (const text of literalsOf(source.slice(start))) hints.push({ where: `${relative(ROOT, file)}:${line}`, text });
    }
  }
  return hints;
}

describe('hint style', () => {
  it('finds the hints it checks', () => {
    expect(sourceHints().length).toBeGreaterThan(100);
  });

  it('writes every hint in the source as a capitalised sentence', () => {
    // A hint that starts with a value (`${path} …`) is checked at its end only.
    const bad = sourceHints().filter(({ text }) => !/^([A-Z]|\$\{)/.test(text) || !/[.?]$/.test(text));
    expect(bad).toEqual([]);
  });

  it('builds "did you mean" and disk-fault hints as sentences', () => {
    expect(didYouMean('personna', ['persona', 'adapter'], 'Keys allowed here')).toMatch(SENTENCE);
    expect(didYouMean('zzz', ['persona', 'adapter'], 'Keys allowed here')).toMatch(SENTENCE);
    expect(didYouMean('zzz', [], 'Keys allowed here')).toMatch(SENTENCE);
    for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EMFILE', 'EIO', 'EXDEV']) {
      expect(diskFaultHint('/runs/a/run.json', Object.assign(new Error('x'), { code }), 'run `wave resume a`')).toMatch(SENTENCE);
    }
  });
});
