import stringWidth from 'string-width';

// Cut between user-perceived characters: an emoji with its modifiers, a letter with its accents, stay whole.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The terminal columns a text takes: wide characters (CJK, most emoji) take two, combining marks none. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** The text cut to at most `columns` terminal columns, ending in … when it was cut; never splits a character. */
export function cutToWidth(text: string, columns: number): string {
  if (stringWidth(text) <= columns) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const width = stringWidth(segment);
    // One column stays free for the ellipsis.
    if (used + width > columns - 1) break;
    kept += segment;
    used += width;
  }
  return `${kept}…`;
}
