import { CST, Composer, Lexer, LineCounter, Parser, Scalar, isScalar, visit, type Document, type YAMLError } from 'yaml';
import { WaveError, WaveErrors, type SourceLocation } from '../../core/errors/errors.js';

/** Files larger than this are refused before parsing. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Deeper nesting than this is refused: real files stay under 20 levels, and the YAML composer recurses. */
export const MAX_DEPTH = 100;
/** Alias expansions allowed while converting to plain values (guards against alias bombs). */
export const MAX_ALIAS_COUNT = 100;
/** YAML syntax errors beyond this are summarised: later ones are mostly echoes of the first. */
const MAX_SYNTAX_ERRORS = 10;

/** A parsed YAML file that remembers where every node came from. */
export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** The 1-based line:col of a character offset. */
export function positionAt(source: Pick<YamlSource, 'file' | 'lineCounter'>, offset: number): SourceLocation {
  const { line, col } = source.lineCounter.linePos(offset);
  return { file: source.file, line, column: col };
}

/**
 * Parses one YAML document keeping positions. Throws WaveErrors listing every syntax error, or a
 * single input_too_large error for input that would exhaust the parser (too large, too deep).
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  const source = { file, lineCounter };
  if (text.length > MAX_FILE_BYTES) throw tooLarge({ file }, `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  // Lexed once: the depth check and the parser read the same tokens.
  const lexemes = Array.from(new Lexer().lex(text));
  const deep = firstTooDeep(lexemes);
  if (deep !== undefined) {
    // Positions need the line counter, which only the parser fills: count the lines up to there.
    lineCounter.addNewLine(0);
    for (let i = text.indexOf('\n'); i !== -1 && i < deep; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
    throw tooLarge(positionAt(source, deep), `the file nests deeper than ${MAX_DEPTH} levels`);
  }
  const tokens = parseLexemes(lexemes, lineCounter);

  const docs = Array.from(new Composer({ merge: true, uniqueKeys: true }).compose(tokens, true, text.length));
  const doc = docs[0]!;
  const errors: WaveError[] = [];
  for (const error of withoutEchoes(doc.errors, lineCounter)) {
    const at = positionAt(source, error.pos[0]);
    const quote = error.code === 'MISSING_CHAR' && /quote/.test(error.message) ? unclosedQuoteStart(doc, error.pos[0]) : undefined;
    if (error.code === 'RESOURCE_EXHAUSTION') errors.push(tooLarge(at, error.message));
    else if (quote !== undefined) {
      errors.push(
        new WaveError('yaml_syntax', 'this quoted text is never closed', {
          location: positionAt(source, quote),
          hint: 'Add the closing quote: everything up to the end of the file was read as one string.',
        }),
      );
    } else errors.push(new WaveError('yaml_syntax', firstLine(error.message), { location: at, hint: syntaxHint(error.code) }));
  }
  if (docs.length > 1) {
    errors.push(
      new WaveError('yaml_syntax', 'the file holds more than one YAML document', {
        location: positionAt(source, docs[1]!.range[0]),
        hint: 'Keep a single document: remove the `---` separator and what follows it, or move it to its own file.',
      }),
    );
  }
  if (errors.length === 0) errors.push(...complexKeys(doc, source));
  if (errors.length > 0) throw new WaveErrors(capErrors(firstPerLine(errors), MAX_SYNTAX_ERRORS));
  return { file, doc, lineCounter };
}

/** The parser's tokens for already lexed input, as `Parser.parse` would give them. */
function* parseLexemes(lexemes: readonly string[], lineCounter: LineCounter): Generator<CST.Token> {
  const parser = new Parser(lineCounter.addNewLine);
  lineCounter.addNewLine(0);
  for (const lexeme of lexemes) yield* parser.next(lexeme);
  yield* parser.end();
}

/** Keeps the first `max` problems and adds one line saying how many more there were. */
export function capErrors(errors: WaveError[], max: number): WaveError[] {
  if (errors.length <= max) return errors;
  const first = errors[max]!;
  const rest = errors.length - max;
  return [
    ...errors.slice(0, max),
    new WaveError(first.code, `…and ${rest} more problem${rest === 1 ? '' : 's'} from here on`, {
      location: first.location,
      hint: 'Fix the problems above first; many of the rest are likely consequences of them.',
    }),
  ];
}

/**
 * The parser's errors without its echoes: one starting on a line an earlier error starts on or spans is a follow-up
 * complaint about the same text (a plain value wrapped onto the next line with `: ` in it is reported on both lines).
 */
function withoutEchoes(errors: readonly YAMLError[], lineCounter: LineCounter): YAMLError[] {
  let claimedTo = 0;
  return [...errors]
    .sort((a, b) => a.pos[0] - b.pos[0])
    .filter((error) => {
      const [start, end] = error.pos;
      const first = lineCounter.linePos(start).line;
      const echo = first <= claimedTo;
      claimedTo = Math.max(claimedTo, lineCounter.linePos(Math.max(start, end - 1)).line);
      return !echo;
    });
}

/** One syntax error per line: the parser's follow-up complaints about the same line add nothing. */
function firstPerLine(errors: WaveError[]): WaveError[] {
  const seen = new Set<number | undefined>();
  return errors.filter((error) => {
    const line = error.location?.line;
    if (seen.has(line)) return false;
    seen.add(line);
    return true;
  });
}

function tooLarge(location: SourceLocation, why: string): WaveError {
  return new WaveError('input_too_large', `refusing to load: ${why}`, {
    location,
    hint: 'A Wave manifest or pipeline is a small hand-written file; check that this is the file you meant.',
  });
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

function syntaxHint(code: string): string {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'Each key may appear once per mapping; remove or rename one of them.';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      return 'Check the indentation: nested keys must be indented further than their parent, with spaces.';
    case 'TAB_AS_INDENT':
      return 'Indent YAML with spaces, not tabs.';
    case 'BLOCK_AS_IMPLICIT_KEY':
      return 'Quote a value that contains `: `, or write a long text as a block: `key: |` with the text on the lines below, indented.';
    case 'MULTILINE_IMPLICIT_KEY':
      return 'A key must fit on one line; check for a missing `:` or a missing quote on the line before.';
    default:
      return 'Fix the YAML syntax at this position (quote values that contain `: `, `#`, `{` or `[`).';
  }
}

/** Where the quoted scalar that runs into `offset` starts: yaml reports a missing quote at the end of the file. */
function unclosedQuoteStart(doc: Document.Parsed, offset: number): number | undefined {
  let start: number | undefined;
  visit(doc, {
    Scalar(_, node) {
      const [from, , to] = node.range ?? [];
      const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
      if (quoted && from !== undefined && to !== undefined && from < offset && offset <= to) start = from;
    },
  });
  return start;
}

const MARKERS = new Set<string>([CST.DOCUMENT, CST.SCALAR, CST.FLOW_END]);

/**
 * The offset where nesting first exceeds MAX_DEPTH, if it does. Measured on the lexer's tokens,
 * which come from a loop, because the YAML parser and composer recurse once per level and very
 * deep input exhausts the stack (sometimes fatally). The estimate never undercounts: open flow
 * brackets, plus the indentation levels of block lines, plus the `-`, `?` and `:` opening a line.
 */
function firstTooDeep(lexemes: readonly string[]): number | undefined {
  const indents: number[] = [];
  let offset = 0;
  let flow = 0;
  let indicators = 0;
  let atLineStart = true;
  let indent = 0;
  for (const token of lexemes) {
    const type = CST.tokenType(token);
    if (type === 'newline') {
      atLineStart = true;
      indicators = 0;
      indent = 0;
    } else if (type === 'space' && atLineStart) {
      indent = token.length - token.trimStart().length;
    } else if (!MARKERS.has(token) && type !== 'comment') {
      if (atLineStart && flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
      }
      atLineStart = false;
      if (type === 'flow-map-start' || type === 'flow-seq-start') flow++;
      else if (type === 'flow-map-end' || type === 'flow-seq-end') flow = Math.max(0, flow - 1);
      else if (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind') indicators++;
    }
    if (indents.length + indicators + flow > MAX_DEPTH) return offset;
    if (!MARKERS.has(token)) offset += token.length;
  }
  return undefined;
}

/** Keys that are mappings, lists or aliases: JavaScript objects cannot hold them (and stringifying them can explode). */
function complexKeys(doc: Document.Parsed, source: Pick<YamlSource, 'file' | 'lineCounter'>): WaveError[] {
  const errors: WaveError[] = [];
  visit(doc, {
    Pair(_, pair) {
      if (pair.key === null || isScalar(pair.key)) return undefined;
      const offset = (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0;
      errors.push(
        new WaveError('wrong_type', 'a key must be plain text, not a mapping, list or alias', {
          location: positionAt(source, offset),
          hint: 'Write the key as a plain word such as `name:`.',
        }),
      );
      return visit.SKIP;
    },
  });
  return errors;
}
