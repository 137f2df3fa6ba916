import type { Writable } from 'node:stream';

/** Colours on only for a TTY, and never when NO_COLOR is set to anything non-empty. */
export function shouldColor(out: Writable | NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return (out as NodeJS.WriteStream).isTTY === true && env.TERM !== 'dumb';
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1, dim: 2 } as const;
export type ColorName = keyof typeof CODES;

/** Wraps text in one SGR colour when enabled, else returns it unchanged. */
export type Paint = (color: ColorName, text: string) => string;

/** A Paint that colours or not. */
export function painter(enabled: boolean): Paint {
  return enabled ? (color, text) => `\x1b[${CODES[color]}m${text}\x1b[0m` : (_color, text) => text;
}
