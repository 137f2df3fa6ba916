import type { TemplateReference } from './templates.js';

/**
 * Where a reference sits in a command when it is not a plain word of the shell. A heredoc's body expands `$` like
 * double quotes do; a quoted-delimiter heredoc (`<<'EOF'`) and a `$'…'` string expand nothing.
 */
export type QuotedContext = 'single quotes' | 'double quotes' | 'a heredoc' | "a quoted heredoc (<<'EOF')" | "a $'…' string";

/** The contexts where the shell expands no variable, so no value can be put there. */
export type UnexpandedContext = Extract<QuotedContext, "a quoted heredoc (<<'EOF')" | "a $'…' string">;

/** Whether a reference's context is one where the shell expands nothing. */
export function isUnexpanded(context: QuotedContext | undefined): context is UnexpandedContext {
  return context === "a quoted heredoc (<<'EOF')" || context === "a $'…' string";
}

type FrameKind = 'squote' | 'ansi' | 'dquote' | 'heredoc' | 'cmdsub' | 'backtick' | 'param' | 'arith';

interface Frame {
  kind: FrameKind;
  /** Unclosed ( or { inside a $( ), $(( )) or ${ }. */
  depth: number;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  /** Any quote or backslash in the delimiter word: the body is then taken as it is, nothing expanded. */
  quoted: boolean;
}

/** What one scan reads and fills: the references by offset and their contexts. */
interface ScanState {
  script: string;
  refs: readonly TemplateReference[];
  at: ReadonlyMap<number, number>;
  contexts: Array<QuotedContext | undefined>;
}

/** Characters that end an unquoted word. */
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/** The context a reference takes from the innermost frame it sits in. */
const FRAME_CONTEXT: Partial<Record<FrameKind, QuotedContext>> = {
  squote: 'single quotes',
  ansi: "a $'…' string",
  dquote: 'double quotes',
  heredoc: 'a heredoc',
};

/**
 * For each reference of a POSIX shell script, the quoting it sits in: single or double quotes, a `$'…'` string, or the
 * body of a heredoc, quoted-delimiter or not (innermost, so `"$(cmd {{ x }})"` is a plain word again, and so is a
 * `$( )` in a heredoc's body); undefined where it is a plain word. A lexer for the cases templates meet, not a parser:
 * `case` patterns inside `$( )` and other rarities may be misread (a misread changes how a value reads, never whether
 * it runs: every form is a parameter expansion).
 */
export function shellContexts(script: string, refs: readonly TemplateReference[]): Array<QuotedContext | undefined> {
  const state: ScanState = { script, refs, at: new Map(refs.map((ref, index) => [ref.offset, index])), contexts: refs.map(() => undefined) };
  scan(state, 0, script.length, []);
  return state.contexts;
}

/** Reads `script` from `i` to `end` with `stack` as the frames already open there. */
function scan(state: ScanState, i: number, end: number, stack: Frame[]): void {
  const { script, refs, at, contexts } = state;
  const pending: PendingHeredoc[] = [];
  const top = (): FrameKind | undefined => stack[stack.length - 1]?.kind;
  while (i < end) {
    const index = at.get(i);
    if (index !== undefined) {
      const kind = top();
      contexts[index] = kind && FRAME_CONTEXT[kind];
      i += refs[index]!.text.length;
      continue;
    }
    const c = script[i]!;
    const next = script[i + 1];
    const kind = top();
    if (kind === 'squote' || kind === 'ansi') {
      if (c === "'") stack.pop();
      // Only a $'…' string knows backslash escapes (\' among them).
      i += kind === 'ansi' && c === '\\' ? 2 : 1;
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
    // A heredoc's body is double-quoted text without the quote: a `"` there is a character like any other.
    if (kind === 'dquote' || kind === 'heredoc') {
      if (c === '"' && kind === 'dquote') stack.pop();
      i++;
      continue;
    }
    if (kind === 'arith') {
      i = closeArith(script, i, stack);
      continue;
    }
    if (c === '$' && next === "'") {
      stack.push({ kind: 'ansi', depth: 0 });
      i += 2;
      continue;
    }
    if (c === "'") stack.push({ kind: 'squote', depth: 0 });
    else if (c === '"') stack.push({ kind: 'dquote', depth: 0 });
    else if (kind === 'param' && c === '{') stack[stack.length - 1]!.depth++;
    else if (kind === 'param' && c === '}') closeFrame(stack);
    else if (kind === 'cmdsub' && c === '(') stack[stack.length - 1]!.depth++;
    else if (kind === 'cmdsub' && c === ')') closeFrame(stack);
    else if (kind !== 'param' && c === '#' && startsWord(script, i)) {
      i = skipComment(state, i);
      continue;
    } else if (kind !== 'param' && c === '<' && next === '<' && script[i + 2] !== '<') {
      i = readHeredocOperator(script, i + 2, pending);
      continue;
    } else if (c === '\n' && pending.length > 0) {
      i = readHeredocBodies(state, i + 1, pending.splice(0));
      continue;
    }
    i++;
  }
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
function skipComment({ script, at, refs }: ScanState, i: number): number {
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
  let quoted = false;
  while (i < script.length) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else delimiter += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < script.length) delimiter += script[++i];
    else if (WORD_END.has(c)) break;
    else delimiter += c;
    if (c === "'" || c === '"' || c === '\\') quoted = true;
    i++;
  }
  if (delimiter !== '') pending.push({ delimiter, stripTabs, quoted });
  return i;
}

/** Reads the heredoc bodies starting at `i` and the references in them; returns the offset after the last terminator line. */
function readHeredocBodies(state: ScanState, i: number, heredocs: readonly PendingHeredoc[]): number {
  const { script } = state;
  for (const heredoc of heredocs) {
    const start = i;
    let bodyEnd = script.length;
    while (i < script.length) {
      const end = script.indexOf('\n', i);
      const line = script.slice(i, end === -1 ? script.length : end);
      const next = end === -1 ? script.length : end + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) {
        bodyEnd = i;
        i = next;
        break;
      }
      i = next;
    }
    // The shell finds the terminator line first and expands the body after, so a value never ends a heredoc.
    if (heredoc.quoted) markQuotedBody(state, start, bodyEnd);
    else scan(state, start, bodyEnd, [{ kind: 'heredoc', depth: 0 }]);
  }
  return i;
}

/** Marks the references of a quoted-delimiter heredoc's body, where the shell expands nothing. */
function markQuotedBody({ at, contexts }: ScanState, start: number, end: number): void {
  for (let offset = start; offset < end; offset++) {
    const index = at.get(offset);
    if (index !== undefined) contexts[index] = "a quoted heredoc (<<'EOF')";
  }
}
