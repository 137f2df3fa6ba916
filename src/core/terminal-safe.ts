// Untrusted text (step output, tool arguments, file names, messages) made safe for a text view: no control character
// reaches a terminal or a reader as such. An escape sequence (clear screen, window title, colours) loses its ESC, a lone
// carriage return cannot overwrite a line, and no line separator but \n can start a new line.

/* eslint-disable no-control-regex -- matching control characters is what this module is for */
/** Every character shown escaped in a multi-line view: C0 but \t and \n, DEL, C1, and the Unicode line and paragraph separators. */
const UNSAFE_IN_BLOCK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/g;
/** The same, with \t and \n too: for a view of one line. */
const UNSAFE_IN_LINE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
/* eslint-enable no-control-regex */

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** A control character as visible text: `\n`, `\t`, `\r`, `\x1b`, `\x9b`, `\u2028`. */
function visible(char: string): string {
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`);
}

/** Untrusted text for a multi-line view: \n and \t kept (a \r\n line end read as \n), every other control character shown escaped. */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_BLOCK, visible);
}

/** Untrusted text on one line of a view (a file name, a tool's target): every control character, \n and \t included, shown escaped. */
export function safeLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}

/**
 * Untrusted text as a quoted block: made safe, then every line prefixed with `> ` (`>` alone for an empty line), so no
 * line of it starts at column 0 and it cannot close the block, open another or pass for a heading around it.
 */
export function quotedBlock(text: string): string {
  return safeText(text)
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}
