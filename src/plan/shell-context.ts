import type { TemplateReference } from './templates.js';

/** Where a reference sits in a command when it is not a plain word of the shell. */
export type QuotedContext = 'single quotes' | 'double quotes' | 'a heredoc';

type FrameKind = 'squote' | 'dquote' | 'cmdsub' | 'backtick' | 'param' | 'arith';

interface Frame {
  kind: FrameKind;
  /** Unclosed ( or { inside a $( ), $(( )) or ${ }. */
  depth: number;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
}

/** Characters that end an unquoted word. */
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/**
 * For each reference of a POSIX shell script, the quoting it sits in: single or double quotes (innermost, so
 * `"$(cmd {{ x }})"` is a plain word again) or a heredoc's body; undefined where it is a plain word. A lexer for the
 * cases templates meet, not a parser: `case` patterns inside `$( )` and other rarities may be misread.
 */
export function shellContexts(script: string, refs: readonly TemplateReference[]): Array<QuotedContext | undefined> {
  const at = new Map(refs.map((ref, index) => [ref.offset, index]));
  const contexts: Array<QuotedContext | undefined> = refs.map(() => undefined);
  const stack: Frame[] = [];
  const pending: PendingHeredoc[] = [];
  const top = (): FrameKind | undefined => stack[stack.length - 1]?.kind;
  let i = 0;
  while (i < script.length) {
    const index = at.get(i);
    if (index !== undefined) {
      const kind = top();
      contexts[index] = kind === 'squote' ? 'single quotes' : kind === 'dquote' ? 'double quotes' : undefined;
      i += refs[index]!.text.length;
      continue;
    }
    const c = script[i]!;
    const next = script[i + 1];
    const kind = top();
    if (kind === 'squote') {
      if (c === "'") stack.pop();
      i++;
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '$' && next === '(' && script[i + 2] === '(') {
      stack.push({ kind: 'arith', depth: 0 });
      i += 3;
      continue;
    }
    if (c === '$' && next === '(') {
      stack.push({ kind: 'cmdsub', depth: 0 });
      i += 2;
      continue;
    }
    if (c === '$' && next === '{') {
      stack.push({ kind: 'param', depth: 0 });
      i += 2;
      continue;
    }
    if (c === '`') {
      if (kind === 'backtick') stack.pop();
      else stack.push({ kind: 'backtick', depth: 0 });
      i++;
      continue;
    }
    if (kind === 'dquote') {
      if (c === '"') stack.pop();
      i++;
      continue;
    }
    if (kind === 'arith') {
      i = closeArith(script, i, stack);
      continue;
    }
    if (c === "'") stack.push({ kind: 'squote', depth: 0 });
    else if (c === '"') stack.push({ kind: 'dquote', depth: 0 });
    else if (kind === 'param' && c === '{') stack[stack.length - 1]!.depth++;
    else if (kind === 'param' && c === '}') closeFrame(stack);
    else if (kind === 'cmdsub' && c === '(') stack[stack.length - 1]!.depth++;
    else if (kind === 'cmdsub' && c === ')') closeFrame(stack);
    else if (kind !== 'param' && c === '#' && startsWord(script, i)) {
      i = skipComment(script, i, at, refs);
      continue;
    } else if (kind !== 'param' && c === '<' && next === '<' && script[i + 2] !== '<') {
      i = readHeredocOperator(script, i + 2, pending);
      continue;
    } else if (c === '\n' && pending.length > 0) {
      i = readHeredocBodies(script, i + 1, pending.splice(0), at, contexts);
      continue;
    }
    i++;
  }
  return contexts;
}

function closeFrame(stack: Frame[]): void {
  const frame = stack[stack.length - 1]!;
  if (frame.depth > 0) frame.depth--;
  else stack.pop();
}

/** One character of an arithmetic expansion; `))` at depth 0 ends it. */
function closeArith(script: string, i: number, stack: Frame[]): number {
  const frame = stack[stack.length - 1]!;
  const c = script[i];
  if (c === '(') frame.depth++;
  else if (c === ')' && frame.depth > 0) frame.depth--;
  else if (c === ')' && script[i + 1] === ')') {
    stack.pop();
    return i + 2;
  }
  return i + 1;
}

function startsWord(script: string, i: number): boolean {
  return i === 0 || WORD_END.has(script[i - 1]!);
}

/** Skips a comment up to its newline; references in it are plain text. */
function skipComment(script: string, i: number, at: ReadonlyMap<number, number>, refs: readonly TemplateReference[]): number {
  while (i < script.length && script[i] !== '\n') {
    const index = at.get(i);
    i += index !== undefined ? refs[index]!.text.length : 1;
  }
  return i;
}

/** Reads `<<[-] word` from just after `<<`; the word's quotes and backslashes are removed, as the shell does. */
function readHeredocOperator(script: string, i: number, pending: PendingHeredoc[]): number {
  const stripTabs = script[i] === '-';
  if (stripTabs) i++;
  while (script[i] === ' ' || script[i] === '\t') i++;
  let delimiter = '';
  let quote: string | undefined;
  while (i < script.length) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else delimiter += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < script.length) delimiter += script[++i];
    else if (WORD_END.has(c)) break;
    else delimiter += c;
    i++;
  }
  if (delimiter !== '') pending.push({ delimiter, stripTabs });
  return i;
}

/** Marks every reference in the heredoc bodies starting at `i`; returns the offset after the last terminator line. */
function readHeredocBodies(script: string, i: number, heredocs: readonly PendingHeredoc[], at: ReadonlyMap<number, number>, contexts: Array<QuotedContext | undefined>): number {
  for (const heredoc of heredocs) {
    while (i < script.length) {
      const end = script.indexOf('\n', i);
      const lineEnd = end === -1 ? script.length : end;
      const line = script.slice(i, lineEnd);
      const next = end === -1 ? script.length : end + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) {
        i = next;
        break;
      }
      for (let offset = i; offset < lineEnd; offset++) {
        const index = at.get(offset);
        if (index !== undefined) contexts[index] = 'a heredoc';
      }
      i = next;
    }
  }
  return i;
}
