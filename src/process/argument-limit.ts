/** Linux's limit on one argument or environment string, its terminating NUL included (MAX_ARG_STRLEN, 32 pages). */
export const ARGUMENT_MAX_BYTES = 128 * 1024;

/** A prompt larger than this goes to an agent CLI on stdin instead of as an argument, well inside ARGUMENT_MAX_BYTES. */
export const PROMPT_ARGUMENT_BYTES = 64 * 1024;

/** Whether a prompt is too large to be handed to a CLI as one argument. */
export function promptTooLargeForArgument(prompt: string): boolean {
  return Buffer.byteLength(prompt) > PROMPT_ARGUMENT_BYTES;
}

/** UTF-16 units per piece of a split prompt: at most 3 bytes each in UTF-8, so a piece stays under PROMPT_ARGUMENT_BYTES. */
const PIECE_UNITS = Math.floor(PROMPT_ARGUMENT_BYTES / 3);
/** The most a split prompt may take of the kernel's 2 MiB for all arguments and the environment together. */
const SPLIT_PROMPT_MAX_BYTES = 1536 * 1024;
/** What a CLI's argument parser would read as a number (and print back changed) or as an option. */
const NOT_A_WORD = /^(-|[-+]?(0[xX][\da-fA-F]+|\d*\.?\d+([eE][-+]?\d+)?)$)/;

/**
 * A prompt cut at spaces into arguments that fit one each, for a CLI that joins its positional words with one space:
 * `pieces.join(' ') === prompt`. Undefined when it cannot be (too large, or no space where one is needed).
 */
export function promptAsWords(prompt: string): string[] | undefined {
  if (Buffer.byteLength(prompt) > SPLIT_PROMPT_MAX_BYTES) return undefined;
  const pieces: string[] = [];
  let start = 0;
  while (prompt.length - start > PIECE_UNITS) {
    let cut = prompt.lastIndexOf(' ', start + PIECE_UNITS);
    // The next piece must not read as an option, and neither may be a bare number.
    while (cut > start && (prompt[cut + 1] === '-' || NOT_A_WORD.test(prompt.slice(start, cut).trim()))) cut = prompt.lastIndexOf(' ', cut - 1);
    if (cut <= start) return undefined;
    pieces.push(prompt.slice(start, cut));
    start = cut + 1;
  }
  const last = prompt.slice(start);
  if (NOT_A_WORD.test(last.trim())) return undefined;
  return [...pieces, last];
}

/** The first argument execve would refuse (E2BIG) for its size, with its index and size, or undefined. */
export function oversizedArgument(args: readonly string[]): { index: number; bytes: number } | undefined {
  for (const [index, arg] of args.entries()) {
    const bytes = Buffer.byteLength(arg);
    if (bytes + 1 > ARGUMENT_MAX_BYTES) return { index, bytes };
  }
  return undefined;
}
