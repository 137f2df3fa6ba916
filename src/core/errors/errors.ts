import type { ErrorCode } from './error-codes.js';

/** Where in a file a problem is; line and column are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface WaveErrorOptions {
  hint?: string;
  location?: SourceLocation;
  cause?: unknown;
}

/** The one error type of Wave: a stable code, a message, a hint and an optional location. */
export class WaveError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly location?: SourceLocation;

  constructor(code: ErrorCode, message: string, options: WaveErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WaveError';
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }

  /** `file:line:col` when known. */
  where(): string | undefined {
    const l = this.location;
    if (!l) return undefined;
    return [l.file, l.line, l.column].filter((p) => p !== undefined).join(':');
  }

  /** The plain-JSON shape printed by `--json`. */
  toJSON(): WaveErrorJSON {
    return {
      code: this.code,
      file: this.location?.file ?? null,
      line: this.location?.line ?? null,
      column: this.location?.column ?? null,
      message: this.message,
      hint: this.hint ?? null,
    };
  }
}

export interface WaveErrorJSON {
  code: ErrorCode;
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  hint: string | null;
}

/** Several problems found at once (every problem in a file is reported together). */
export class WaveErrors extends Error {
  constructor(readonly errors: WaveError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'WaveErrors';
  }
}

/** Formats an error for a terminal: `file:line:col: code: message` and an indented hint. */
export function formatError(error: WaveError): string {
  const where = error.where();
  const head = `${where ? `${where}: ` : ''}${error.code}: ${error.message}`;
  return error.hint ? `${head}\n  hint: ${error.hint}` : head;
}
