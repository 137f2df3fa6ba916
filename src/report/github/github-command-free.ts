import { randomBytes } from 'node:crypto';

/** Printing to the Action's log where no line is read as a workflow command, and Wave's own commands outside it. */
export interface CommandFreeLog {
  /** Prints lines a step or its agent may have written: inside a `::stop-commands::` region, opened if none is. */
  untrusted(text: string): void;
  /** Closes the open region, if any: call before printing a workflow command of Wave's own. */
  resume(): void;
}

/**
 * The runner reads no workflow command (`::error`, `::endgroup::`, `::add-mask::`, `##[…]`) between
 * `::stop-commands::<token>` and `::<token>::` (GitHub's "Stopping and starting workflow commands"). Each region has
 * a fresh random token, so text printed inside cannot guess it to end the region early.
 */
export function commandFreeLog(write: (line: string) => void): CommandFreeLog {
  let token: string | undefined;
  return {
    untrusted(text) {
      if (token === undefined) {
        token = randomBytes(16).toString('hex');
        write(`::stop-commands::${token}`);
      }
      write(text);
    },
    resume() {
      if (token === undefined) return;
      write(`::${token}::`);
      token = undefined;
    },
  };
}
