import { readFileSync } from 'node:fs';
import type { SourceLocation } from '../core/errors/errors.js';
import { lineColumnAt, type TemplateReference } from './templates.js';

/** Where a reference is in its file: the template's start plus its line, and its true column on that line. */
export function referenceLocation(template: string, ref: Pick<TemplateReference, 'offset' | 'text'>, start: SourceLocation): SourceLocation {
  const at = lineColumnAt(template, ref.offset);
  const line = (start.line ?? 1) + at.line - 1;
  // The file line shows the true column (indentation and quotes are not in the template text): the same
  // occurrence of the reference's text, counted from where the template starts on that line.
  const lineStart = template.lastIndexOf('\n', ref.offset - 1) + 1;
  const earlier = template.slice(lineStart, ref.offset).split(ref.text).length - 1;
  const text = sourceLine(start.file, line);
  let column = -1;
  let from = at.line === 1 ? Math.max(0, (start.column ?? 1) - 1) : 0;
  for (let seen = 0; text !== undefined && seen <= earlier; seen++) {
    column = text.indexOf(ref.text, from);
    if (column < 0) break;
    from = column + ref.text.length;
  }
  return { ...start, line, column: column >= 0 ? column + 1 : at.column };
}

/** One line of a file (1-based), or undefined when it cannot be read. */
function sourceLine(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, 'utf8').split('\n')[line - 1];
  } catch {
    return undefined;
  }
}
