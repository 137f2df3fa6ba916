import { Transform } from 'node:stream';

/** What every secret or token is replaced with. */
export const REDACTED = '[REDACTED]';

/** Secret values shorter than this are ignored: no real key is this short, and redacting one would shred ordinary text. */
export const MIN_SECRET_LENGTH = 8;

interface TokenShape {
  /** Regex source; ASCII only, never matches a newline; a prefix to keep is captured as (?<keepN>). */
  source: string;
  /** The longest text a match can span, look-behind and look-ahead included. */
  maxChars: number;
}

// Case-insensitive literal without the `i` flag, which would also loosen every other shape.
const anyCase = (word: string): string => [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');

// A look-behind placed after the literal prefix lets the regex engine skip ahead on that literal.
const notAfterWord = (prefix: string): string => `${prefix}(?<![A-Za-z0-9]${prefix})`;

/** Common credential shapes; every quantifier is bounded so a match never exceeds maxChars. */
const TOKEN_SHAPES: TokenShape[] = [
  // sk-…, sk-ant-…, sk-proj-… (OpenAI, Anthropic and alike)
  { source: `${notAfterWord('sk-')}[A-Za-z0-9_-]{16,400}`, maxChars: 1 + 3 + 400 },
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens
  { source: `${notAfterWord('gh[pousr]_')}[A-Za-z0-9]{20,255}`, maxChars: 1 + 4 + 255 },
  { source: `${notAfterWord('github_pat_')}[A-Za-z0-9_]{20,255}`, maxChars: 1 + 11 + 255 },
  // AWS access key ids
  { source: 'A[KS]IA(?<![A-Z0-9]A[KS]IA)[A-Z0-9]{16}(?![A-Z0-9])', maxChars: 1 + 20 + 1 },
  // aws_secret_access_key = "…" (env files, ini, TOML, JSON, YAML)
  {
    source: `(?<keep0>${anyCase('aws_secret_access_key')}["']?[ \\t]{0,8}[:=][ \\t]{0,8}["']?)[A-Za-z0-9/+=]{16,128}`,
    maxChars: 21 + 1 + 8 + 1 + 8 + 1 + 128,
  },
  // Authorization: Bearer <token>
  { source: '(?<keep1>[Bb]earer[ \\t]{1,8})[A-Za-z0-9._~+/=-]{8,2048}', maxChars: 6 + 8 + 2048 },
  // Slack tokens
  { source: `${notAfterWord('xox[abposr]-')}[A-Za-z0-9-]{10,255}`, maxChars: 1 + 5 + 255 },
];

// The bound: no token match spans more than 2,062 chars, so stream windows overlapping by that much miss none.
const TOKEN_MAX_CHARS = Math.max(...TOKEN_SHAPES.map((shape) => shape.maxChars));

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A value as it appears in a URL (a query parameter, a path segment), when that differs from the value. */
function urlEncoded(value: string): string[] {
  try {
    const encoded = encodeURIComponent(value);
    return encoded === value ? [] : [encoded];
  } catch {
    // A lone surrogate cannot be encoded, so it cannot appear encoded either.
    return [];
  }
}

/** A multi-line secret is redacted line by line, so that no pattern ever spans a newline. */
function secretLines(values: string[]): string[] {
  const lines = values
    .flatMap((value) => [value, ...urlEncoded(value)])
    .flatMap((value) => value.split(/\r?\n/))
    .filter((line) => line.length >= MIN_SECRET_LENGTH);
  // Longest first: a secret that contains another one is replaced whole.
  return [...new Set(lines)].sort((a, b) => b.length - a.length);
}

function buildRegex(secrets: string[], tokenShapes: boolean): RegExp {
  const alternatives = [...secrets.map(escapeRegex), ...(tokenShapes ? TOKEN_SHAPES.map((shape) => `(?:${shape.source})`) : [])];
  // Nothing to find: a pattern that never matches (an empty one would match everywhere).
  return new RegExp(alternatives.length ? alternatives.join('|') : '(?!)', 'g');
}

function replacement(groups: Record<string, string | undefined> | undefined): string {
  return (groups?.keep0 ?? groups?.keep1 ?? '') + REDACTED;
}

export interface RedactorOptions {
  /** Also redact common token shapes (sk-…, ghp_…, Bearer …); true by default. Off for artifacts, whose text is data. */
  tokenShapes?: boolean;
}

/** Replaces secret values (and their URL-encoded forms) and common token shapes with [REDACTED]. */
export class Redactor {
  /** Matches on JavaScript strings (events, messages). */
  private readonly textRegex: RegExp;
  /** The same, on bytes read as latin1 (one char per byte), so logs of any encoding pass through intact. */
  private readonly byteRegex: RegExp;
  /** The most bytes one match can span; a window must overlap the next by this much. */
  readonly maxMatchBytes: number;

  /** How many secret lines (values and encoded forms) it looks for, token shapes aside. */
  readonly secretCount: number;

  constructor(secretValues: string[], options: RedactorOptions = {}) {
    const secrets = secretLines(secretValues);
    const secretBytes = secrets.map((secret) => Buffer.from(secret, 'utf8').toString('latin1'));
    const tokenShapes = options.tokenShapes ?? true;
    this.textRegex = buildRegex(secrets, tokenShapes);
    this.byteRegex = buildRegex(secretBytes, tokenShapes);
    this.maxMatchBytes = Math.max(TOKEN_MAX_CHARS, ...secretBytes.map((secret) => secret.length + 1));
    this.secretCount = secrets.length;
  }

  /** The text with every secret and token replaced. */
  redact(text: string): string {
    return text.replace(this.textRegex, (...args: unknown[]) => replacement(args.at(-1) as Record<string, string>));
  }

  /** Redacts a latin1-decoded byte string completely (it ends at a line end or at the end of the stream). */
  redactBytes(bytes: string): string {
    return this.redactBytesUpTo(bytes, bytes.length).done;
  }

  /**
   * Redacts the part of a latin1 byte string that no later byte can change: everything before
   * `length - maxMatchBytes`, extended to the end of a match that starts there. Returns the rest raw.
   */
  redactBytesWindow(bytes: string): { done: string; rest: string } {
    return this.redactBytesUpTo(bytes, bytes.length - this.maxMatchBytes);
  }

  private redactBytesUpTo(bytes: string, limit: number): { done: string; rest: string; count: number } {
    const regex = this.byteRegex;
    regex.lastIndex = 0;
    let done = '';
    let position = 0;
    let count = 0;
    for (let match = regex.exec(bytes); match !== null && match.index < limit; match = regex.exec(bytes)) {
      done += bytes.slice(position, match.index) + replacement(match.groups);
      position = match.index + match[0].length;
      count++;
    }
    const consumed = Math.max(position, Math.min(limit, bytes.length));
    return { done: done + bytes.slice(position, consumed), rest: bytes.slice(consumed), count };
  }

  /** redactBytes, also telling how many matches were replaced. */
  redactBytesCounted(bytes: string): { done: string; count: number } {
    const { done, count } = this.redactBytesUpTo(bytes, bytes.length);
    return { done, count };
  }

  /** redactBytesWindow, also telling how many matches were replaced. */
  redactBytesWindowCounted(bytes: string): { done: string; rest: string; count: number } {
    return this.redactBytesUpTo(bytes, bytes.length - this.maxMatchBytes);
  }
}

export interface RedactingStreamOptions {
  /** Bytes of an unfinished line gathered before a window of it is redacted and passed on. */
  windowBytes?: number;
  /** Told how many matches each redacted piece had, when it had any. */
  onRedacted?: (count: number) => void;
}

/**
 * A byte Transform that redacts a log of any size: whole lines as they complete, and over-long lines in
 * windows that overlap by maxMatchBytes (every pattern is bounded and never spans a newline, so no match
 * can straddle a cut). Memory stays under windowBytes + maxMatchBytes plus one chunk.
 */
export function createRedactingStream(redactor: Redactor, options: RedactingStreamOptions = {}): Transform {
  const windowBytes = options.windowBytes ?? 64 * 1024;
  const counted = (count: number) => {
    if (count > 0) options.onRedacted?.(count);
  };
  let pending = '';
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('latin1');
      let out = '';
      const lastNewline = pending.lastIndexOf('\n');
      if (lastNewline !== -1) {
        const lines = redactor.redactBytesCounted(pending.slice(0, lastNewline + 1));
        counted(lines.count);
        out = lines.done;
        pending = pending.slice(lastNewline + 1);
      }
      if (pending.length > windowBytes + redactor.maxMatchBytes) {
        const { done, rest, count } = redactor.redactBytesWindowCounted(pending);
        counted(count);
        out += done;
        pending = rest;
      }
      callback(null, out.length > 0 ? Buffer.from(out, 'latin1') : undefined);
    },
    flush(callback) {
      const { done: out, count } = redactor.redactBytesCounted(pending);
      counted(count);
      pending = '';
      callback(null, out.length > 0 ? Buffer.from(out, 'latin1') : undefined);
    },
  });
}
