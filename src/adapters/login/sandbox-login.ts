import { existsSync } from 'node:fs';
import { isInside } from '../../core/inside-path.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { keyReaches } from './key-variables.js';
import { agentCliOfAdapter } from '../agent-clis.js';

/** The user's CLI login as a sandboxed step uses it: the one credentials file, where the CLI looks for it inside, and what else it needs. */
export interface SandboxLogin {
  /** The credentials file on the host, bound read-write so the CLI can refresh its token in place. */
  file: string;
  /** Where the CLI looks for it inside: under the step's own HOME. */
  at: string;
  variables: Readonly<Record<string, string>>;
  hosts: readonly string[];
}

/**
 * The login a sandboxed step of `adapter` uses when it has no other access: no base_url, no key reaching it (`env`
 * is the step's), not isolated (an isolated adapter keeps every login out), and a login file of its CLI on the host
 * whose place inside falls in the step's `home`. Only that file is shown, never the rest of the user's HOME.
 */
export function sandboxLogin(adapter: ResolvedAdapter, env: Record<string, string>, home: string): SandboxLogin | undefined {
  if (adapter.isolated || adapter.baseUrl) return undefined;
  const seen: Record<string, string | undefined> = { ...env, ...adapter.env };
  const cli = agentCliOfAdapter(adapter);
  if (!cli || keyReaches(adapter, cli.keyVariables, seen)) return undefined;
  const { login } = cli;
  const hostFiles = login.files(seen);
  const index = hostFiles.findIndex((file) => existsSync(file));
  const at = login.files({ ...seen, HOME: home })[index];
  if (index < 0 || at === undefined || !isInside(home, at, false)) return undefined;
  return { file: hostFiles[index]!, at, variables: login.variables, hosts: login.hosts };
}
