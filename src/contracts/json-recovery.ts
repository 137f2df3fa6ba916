/** JSON found in a model's answer, and how it was found. */
export interface RecoveredJson {
  value: unknown;
  /** The JSON re-serialised (two-space indent), what is written back as the artifact. */
  text: string;
  /** What recovery did: `parsed` (already JSON), `fenced`, `embedded`; `+commas` when trailing commas were dropped. */
  how: string;
}

const FENCE = /```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)```/g;

/** Parses `text` as JSON, or recovers it from markdown fences, surrounding prose and trailing commas. */
export function recoverJson(text: string): RecoveredJson | undefined {
  const candidates: Array<[string, string]> = [[text.trim(), 'parsed']];
  const fences = [...text.matchAll(FENCE)];
  // A fence labelled json is the answer; other fences are tried after it.
  fences.sort((a, b) => Number(b[1]!.toLowerCase() === 'json') - Number(a[1]!.toLowerCase() === 'json'));
  for (const fence of fences) candidates.push([fence[2]!.trim(), 'fenced']);
  const embedded = outermostJson(text);
  if (embedded) candidates.push([embedded, 'embedded']);
  for (const [candidate, how] of candidates) {
    const parsed = parseLenient(candidate);
    if (parsed) return { value: parsed.value, text: `${JSON.stringify(parsed.value, null, 2)}\n`, how: parsed.fixed ? `${how}+commas` : how };
  }
  return undefined;
}

/** JSON.parse, then once more without trailing commas. */
function parseLenient(text: string): { value: unknown; fixed: boolean } | undefined {
  if (!text) return undefined;
  try {
    return { value: JSON.parse(text), fixed: false };
  } catch {
    const cleaned = withoutTrailingCommas(text);
    if (cleaned === text) return undefined;
    try {
      return { value: JSON.parse(cleaned), fixed: true };
    } catch {
      return undefined;
    }
  }
}

/** Drops commas directly before `}` or `]`, outside strings. */
export function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      const next = text.slice(i + 1).match(/^\s*([\]}])/);
      if (next) continue;
    }
    out += c;
  }
  return out;
}

/** The first balanced {…} or […] span of the text, skipping brackets inside strings. */
function outermostJson(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start === -1) return undefined;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return undefined;
      if (!stack.length) return text.slice(start, i + 1);
    }
  }
  return undefined;
}
