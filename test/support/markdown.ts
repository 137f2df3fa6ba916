import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** The user documentation: README.md and every page of docs/, as absolute paths. */
export function docPages(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), ...pages];
}

/** The text with every fenced code block blanked line for line, so line numbers still match the file. */
export function proseOf(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker?.startsWith(fence) && line.trim() === marker) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a dash. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor the headings of a page give, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of proseOf(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = headingSlug(match[1]!);
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** One inline link of a page: its target as written and the line it starts on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The inline links of a page outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  // Code spans are blanked to spaces of the same length, so offsets, and so line numbers, stay right.
  const prose = proseOf(markdown).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => ({
    target: match[1]!,
    line: prose.slice(0, match.index).split('\n').length,
  }));
}
