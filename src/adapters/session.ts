import { cp, lstat, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { TokenUsage } from '../core/models/tokens.js';
import type { AdapterRunConfig } from './types.js';

/** A session id as it may go into argv: it comes from the agent's own output, so nothing but a plain token passes. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Whether an id reported by an agent is safe to hand back to its CLI (no leading dash: never read as an option). */
export function isSafeSessionId(id: string | undefined): id is string {
  return id !== undefined && SESSION_ID.test(id);
}

/** The session a CLI invocation resumes: `continueFrom`'s id when it is a prompt step's and a safe one, else none. */
export function resumedSession(config: AdapterRunConfig): string | undefined {
  const id = config.continueFrom?.sessionId;
  return config.execType === 'prompt' && isSafeSessionId(id) ? id : undefined;
}

/**
 * Copies a previous attempt's config home (the CLI's stored sessions) into this attempt's, before the CLI starts.
 * Files and folders are copied; a symbolic link only when it is relative and stays inside the home (copied as
 * the link, never followed); sockets, pipes and devices are left out. Returns false when there is no such home.
 */
export async function copySessionHome(from: string, to: string): Promise<boolean> {
  const stat = await lstat(from).catch(() => undefined);
  if (!stat?.isDirectory()) return false;
  await cp(from, to, { recursive: true, force: true, dereference: false, verbatimSymlinks: true, filter: (source) => keptInCopy(source, from) });
  return true;
}

async function keptInCopy(source: string, root: string): Promise<boolean> {
  const stat = await lstat(source);
  if (stat.isDirectory() || stat.isFile()) return true;
  if (!stat.isSymbolicLink()) return false;
  const target = await readlink(source);
  if (isAbsolute(target)) return false;
  const rel = relative(root, resolve(dirname(source), target));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The first line of a failed resume's message when it matches the CLI's refusal (an unknown session), else undefined. */
export function resumeRefusal(refused: RegExp | undefined, message: string): string | undefined {
  const match = refused?.exec(message);
  if (!match) return undefined;
  const start = message.lastIndexOf('\n', match.index) + 1;
  const end = message.indexOf('\n', match.index);
  // Colour codes (OpenCode prints its errors in colour) are dropped from the one-line reason.
  return stripVTControlCharacters(message.slice(start, end === -1 ? undefined : end)).trim();
}

/** This attempt's own usage from a figure that counts the whole session (Codex): the session's earlier usage taken off. */
export function usageOfAttempt(sessionTotal: TokenUsage, before: TokenUsage | undefined): TokenUsage {
  if (!before) return sessionTotal;
  return {
    input: Math.max(0, sessionTotal.input - before.input),
    output: Math.max(0, sessionTotal.output - before.output),
    cacheRead: Math.max(0, sessionTotal.cacheRead - before.cacheRead),
    cacheWrite: Math.max(0, sessionTotal.cacheWrite - before.cacheWrite),
  };
}

/** An attempt's own cost from a resumed session's running total (Claude restores the session's cost on --resume). */
export function costOfAttempt(sessionTotal: number, before: number | undefined): number {
  // Rounded so that float noise never shows as a cost such as 0.023018399999999998.
  return before === undefined ? sessionTotal : Math.max(0, Number((sessionTotal - before).toFixed(10)));
}
