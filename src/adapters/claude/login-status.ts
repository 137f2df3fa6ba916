import { parseJsonLine } from '../../stream/lines.js';
import type { LoginStatus } from '../login/login-status.js';
import type { CliEnvInput } from '../types.js';
import { buildClaudeEnv } from './invocation.js';

/** How long `claude auth status` may take. */
const STATUS_TIMEOUT_MS = 20_000;

/**
 * Claude Code's own answer, `claude auth status --json`, with the environment a step gets: it knows every way Claude
 * finds credentials (a key, ANTHROPIC_AUTH_TOKEN, apiKeyHelper, the login in its config folder or the keychain).
 */
export async function claudeLoginStatus(cli: CliEnvInput, binaryPath: string): Promise<LoginStatus> {
  const { execa } = await import('execa');
  const result = await execa(binaryPath, ['auth', 'status', '--json'], {
    env: buildClaudeEnv(cli, []),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: STATUS_TIMEOUT_MS,
  });
  const status = parseJsonLine(String(result.stdout));
  if (typeof status?.loggedIn !== 'boolean') {
    const said = `${String(result.stderr)}\n${String(result.stdout)}`.trim().split('\n').at(-1);
    return { state: 'unknown', detail: `\`claude auth status\` gave no answer${said ? `: ${said}` : ''}` };
  }
  if (!status.loggedIn) return { state: 'missing', detail: '`claude auth status` finds no key, token or login' };
  const how = [status.authMethod, status.apiKeySource].filter((part): part is string => typeof part === 'string' && part !== 'none');
  return { state: 'ok', detail: `logged in${how.length ? ` (${how.join(', ')})` : ''}` };
}
