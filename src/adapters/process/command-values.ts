import { constants } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, realpath, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * How a command step's template values reach its shell without ever being shell text: the command holds a quoted
 * reference to a variable ("$WAVE_VALUE_1") and the value goes to the shell in the environment, or, when too large
 * for one environment string, in a file the script reads into the variable before anything else runs. A parameter
 * expansion's result is never parsed again, so no quoting context can turn a value into code.
 */

/** The shell variable holding a command's n-th template value (1-based). */
export function valueVariable(slot: number): string {
  return `WAVE_VALUE_${slot}`;
}

/** What a command holds in place of its n-th value: a double-quoted expansion, one word whatever the value is. */
export function valueReference(slot: number): string {
  return `"$${valueVariable(slot)}"`;
}

/** A value up to this size goes in the environment (Linux caps one environment string at 128 KiB). */
export const ENV_VALUE_BYTES = 32 * 1024;
/** All values in the environment together: every program the command starts inherits them, within ARG_MAX. */
export const ENV_TOTAL_BYTES = 128 * 1024;
/** The workspace folder holding larger values while an attempt runs. */
export const VALUE_FILES_DIR = join('.wave', 'values');

/** How one attempt hands its values to the shell. */
export interface ShellValues {
  /** Variables added to the attempt's environment. */
  env: Record<string, string>;
  /** Values too large (or holding a NUL byte) for the environment: slot -> text, written to files. */
  files: Map<number, string>;
}

/** Splits a command's values (slot n is values[n - 1]) between the environment and files. */
export function planShellValues(values: readonly string[]): ShellValues {
  const env: Record<string, string> = {};
  const files = new Map<number, string>();
  let total = 0;
  values.forEach((value, index) => {
    const slot = index + 1;
    const bytes = Buffer.byteLength(value);
    // An environment string cannot hold a NUL byte; a shell variable cannot either, so from a file it is dropped.
    if (bytes <= ENV_VALUE_BYTES && total + bytes <= ENV_TOTAL_BYTES && !value.includes('\0')) {
      env[valueVariable(slot)] = value;
      total += bytes;
    } else {
      files.set(slot, value);
    }
  });
  return { env, files };
}

/** The value files of one attempt, written in the workspace, and the script lines that read them. */
export interface WrittenValues {
  /** Statements put before the command on its first line (its line numbers stay): each reads one file into its variable. */
  prelude: string;
  /** Removes the files; never rejects. */
  remove(): Promise<void>;
}

/**
 * Writes each value of `files` to `<workspace>/.wave/values/<step>-XXXXXX/<slot>`, refusing a `.wave` or `values`
 * that leads out of the workspace and never following a link at the file itself; the prelude reads them from `cwd`.
 */
export async function writeValueFiles(workspace: string, stepId: string, files: ReadonlyMap<number, string>, cwd = workspace): Promise<WrittenValues> {
  if (files.size === 0) return { prelude: '', remove: async () => undefined };
  let parent = workspace;
  // One folder at a time, never through a link: a `.wave` link left by a step must not place files elsewhere.
  for (const part of VALUE_FILES_DIR.split(sep)) {
    parent = join(parent, part);
    await mkdir(parent).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    if (!(await lstat(parent)).isDirectory()) throw new Error(`${relative(workspace, parent)} in the workspace leads outside it: it is not a folder`);
  }
  const [realWorkspace, realParent, realCwd] = await Promise.all([realpath(workspace), realpath(parent), realpath(cwd)]);
  if (realParent !== join(realWorkspace, VALUE_FILES_DIR)) {
    throw new Error(`${VALUE_FILES_DIR} in the workspace leads outside it (to ${realParent})`);
  }
  const folder = await mkdtemp(join(realParent, `${stepId}-`));
  const remove = () => rm(folder, { recursive: true, force: true }).catch(() => undefined);
  try {
    const lines: string[] = [];
    for (const [slot, text] of files) {
      const file = join(folder, String(slot));
      const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      // Relative to where the command runs: the sandbox shows the workspace at its own path, maybe not at its real one.
      lines.push(readLine(slot, relative(realCwd, file).split(sep).join('/')));
    }
    return { prelude: lines.join(''), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** One prelude statement: `$(…)` strips trailing newlines, so an `x` is appended inside and removed after. */
function readLine(slot: number, path: string): string {
  const name = valueVariable(slot);
  // The path is Wave's own (step ids are [A-Za-z0-9_.-], mkdtemp adds letters and digits); quoted all the same.
  const quoted = `'${path.replaceAll("'", `'\\''`)}'`;
  return `${name}=$(cat ${quoted} && printf x) || exit 125; ${name}=\${${name}%x}; `;
}
