/** Exit codes, documented in README.md. */
export const EXIT = {
  ok: 0,
  runFailed: 1,
  invalidInput: 2,
  interrupted: 130,
} as const;
