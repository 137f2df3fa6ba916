/** Linux's limit on one argument or environment string, its terminating NUL included (MAX_ARG_STRLEN, 32 pages). */
export const ARGUMENT_MAX_BYTES = 128 * 1024;

/** A prompt larger than this goes to an agent CLI on stdin instead of as an argument, well inside ARGUMENT_MAX_BYTES. */
export const PROMPT_ARGUMENT_BYTES = 64 * 1024;

/** Whether a prompt is too large to be handed to a CLI as one argument. */
export function promptTooLargeForArgument(prompt: string): boolean {
  return Buffer.byteLength(prompt) > PROMPT_ARGUMENT_BYTES;
}

/** The first argument execve would refuse (E2BIG) for its size, with its index and size, or undefined. */
export function oversizedArgument(args: readonly string[]): { index: number; bytes: number } | undefined {
  for (const [index, arg] of args.entries()) {
    const bytes = Buffer.byteLength(arg);
    if (bytes + 1 > ARGUMENT_MAX_BYTES) return { index, bytes };
  }
  return undefined;
}
