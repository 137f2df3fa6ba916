/** Anything that hides secrets in a text; src/redact.ts's Redactor is one. */
export interface TextRedactor {
  redact(text: string): string;
}

export interface RedactValuesOptions {
  /** Keys whose values are kept as they are (paths a resume must find again). */
  keep?: ReadonlySet<string>;
  /** Remembers redacted strings; run.json repeats the same ones on every write. */
  cache?: Map<string, string>;
}

const CACHE_LIMIT = 10_000;

/** Redacts every string inside a JSON-like value (objects, arrays), returning a copy; keys are kept. */
export function redactValues<T>(value: T, redactor: TextRedactor, options: RedactValuesOptions = {}): T {
  return walk(value, redactor, options.keep, options.cache ?? new Map<string, string>()) as T;
}

/** A redactValues bound to one redactor and its options, with a bounded cache of recent strings. */
export function cachedValueRedactor(redactor: TextRedactor, keep?: ReadonlySet<string>): <T>(value: T) => T {
  const cache = new Map<string, string>();
  return <T>(value: T): T => {
    if (cache.size > CACHE_LIMIT) cache.clear();
    return redactValues(value, redactor, { keep, cache });
  };
}

function walk(value: unknown, redactor: TextRedactor, keep: ReadonlySet<string> | undefined, cache: Map<string, string>): unknown {
  if (typeof value === 'string') {
    let redacted = cache.get(value);
    if (redacted === undefined) {
      redacted = redactor.redact(value);
      cache.set(value, redacted);
    }
    return redacted;
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, redactor, keep, cache));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = keep?.has(key) ? item : walk(item, redactor, keep, cache);
    return copy;
  }
  return value;
}

/** A JSON.stringify replacer that redacts strings as they are written: no copy of a large record. */
export function redactingReplacer(redactor: TextRedactor, keep?: ReadonlySet<string>): (key: string, value: unknown) => unknown {
  const cache = new Map<string, string>();
  return (key, value) => {
    if (typeof value !== 'string' || keep?.has(key)) return value;
    if (cache.size > CACHE_LIMIT) cache.clear();
    let redacted = cache.get(value);
    if (redacted === undefined) {
      redacted = redactor.redact(value);
      cache.set(value, redacted);
    }
    return redacted;
  };
}
