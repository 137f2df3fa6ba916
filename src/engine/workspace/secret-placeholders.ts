import { MIN_SECRET_LENGTH } from '../../redact.js';

/** What a secret value is stored as in a recording's file content: its variable's name, which a replay restores it from. */
export function secretPlaceholder(name: string): string {
  return `{{wave-secret:${name}}}`;
}

/** `content` with every secret value in it replaced by its placeholder, and the names of those it held (longest value first). */
export function withSecretPlaceholders(content: Buffer, secrets: ReadonlyArray<readonly [name: string, value: string]>): { content: Buffer; names: string[] } {
  const names: string[] = [];
  let current = content;
  const longestFirst = [...secrets].filter(([, value]) => value.length >= MIN_SECRET_LENGTH).sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of longestFirst) {
    const replaced = replaceAll(current, Buffer.from(value), Buffer.from(secretPlaceholder(name)));
    if (replaced === current) continue;
    current = replaced;
    if (!names.includes(name)) names.push(name);
  }
  return { content: current, names: names.sort() };
}

/** `content` with the placeholder of each of `names` replaced by its variable's value, byte for byte; `unset`: the names whose variable is unset (their placeholder stays). */
export function withSecretValues(content: Buffer, names: readonly string[], env: NodeJS.ProcessEnv): { content: Buffer; unset: string[] } {
  const unset: string[] = [];
  let current = content;
  for (const name of names) {
    const value = env[name];
    if (value === undefined) unset.push(name);
    else current = replaceAll(current, Buffer.from(secretPlaceholder(name)), Buffer.from(value));
  }
  return { content: current, unset };
}

/** The bytes with each `find` replaced by `put`; the same buffer when there is none (a file may be binary, so not a string). */
function replaceAll(bytes: Buffer, find: Buffer, put: Buffer): Buffer {
  let at = bytes.indexOf(find);
  if (at < 0) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(bytes.subarray(from, at), put);
    from = at + find.length;
    at = bytes.indexOf(find, from);
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
