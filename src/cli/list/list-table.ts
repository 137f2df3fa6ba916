import { cutToWidth, displayWidth } from '../../report/columns.js';
import { safeText } from '../../core/terminal-safe.js';

/** How wide the table may be: the terminal's width when stdout is one, else unlimited (a pipe gets whole cells). */
export function tableWidth(): number | undefined {
  return process.stdout.isTTY ? process.stdout.columns : undefined;
}

/** Text from a file made one safe line: line breaks become spaces, control characters are shown, never run. */
export function cellText(text: string): string {
  return safeText(text.replace(/\s+/g, ' ').trim());
}

/** A line cut to `width` terminal columns, when given. */
export function fitLine(line: string, width: number | undefined): string {
  return width === undefined ? line : cutToWidth(line, width);
}

/** Rows under a header, each column as wide as its widest cell (in terminal columns), the last one unpadded; each line fits `width`. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], width?: number): string[] {
  const clean = rows.map((row) => row.map(cellText));
  const widths = header.map((title, i) => Math.max(displayWidth(title), ...clean.map((row) => displayWidth(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    fitLine(cells.map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - displayWidth(cell)))).join('  '), width).trimEnd();
  return [header, ...clean].map(line);
}
