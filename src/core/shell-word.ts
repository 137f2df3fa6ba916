/** `text` single-quoted for a POSIX shell, whatever it holds. */
export function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `text` as one shell word: bare when it is plain, else single-quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(text) ? text : shellQuoted(text);
}
