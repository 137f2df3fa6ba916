import { isolatedHome } from '../agent-process.js';
import { resumedSession } from '../session.js';
import type { AdapterRunConfig, CliEnvInput } from '../types.js';
import { claudePermissionArgs, claudePermissions } from './permissions.js';

/** Variables that keep Claude Code from reaching anything but the model API, and cap its own retries. */
export const CLAUDE_QUIET_ENV: Readonly<Record<string, string>> = Object.freeze({
  DISABLE_TELEMETRY: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
  // Claude retries 10 times with backoff by default; Wave's retry policy decides instead.
  CLAUDE_CODE_MAX_RETRIES: '1',
});

/**
 * Claude Code's switches for its own OpenTelemetry spans (the OTEL_* variables say where they go). Never its prompt or
 * tool content switches: what a CLI sends its collector Wave cannot redact.
 */
const CLAUDE_TELEMETRY_ENV: Readonly<Record<string, string>> = Object.freeze({ CLAUDE_CODE_ENABLE_TELEMETRY: '1', CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: '1' });

const PERMISSION_FLAGS = ['--permission-mode', '--dangerously-skip-permissions'];

/**
 * The argv of `claude -p` (the prompt goes to stdin): stream-json, verbose, the persona's permissions (mode, tools,
 * rules), the model, the persona's prompt, `--resume` on a continued attempt.
 */
export function buildClaudeArgs(config: AdapterRunConfig, systemPrompt: string): string[] {
  const extra = config.adapter.args ?? [];
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  const permissions = claudePermissions(config.persona, (config.skills?.length ?? 0) > 0);
  if (!extra.some((arg) => PERMISSION_FLAGS.includes(arg))) args.push('--permission-mode', permissions.mode);
  args.push(...claudePermissionArgs(permissions));
  const model = config.model ?? config.adapter.model;
  if (model) args.push('--model', model);
  const session = resumedSession(config);
  if (session) args.push('--resume', session);
  if (systemPrompt.trim() !== '') args.push('--append-system-prompt', systemPrompt);
  return [...args, ...extra];
}

/** Claude's environment: quiet defaults, the step's env over them, then base URL, API key and config home. */
export function buildClaudeEnv(config: CliEnvInput, args: string[]): Record<string, string> {
  const env: Record<string, string> = { ...CLAUDE_QUIET_ENV, ...config.env };
  const { baseUrl, apiKeyEnv, isolated } = config.adapter;
  if (baseUrl) env.ANTHROPIC_BASE_URL = baseUrl;
  const key = apiKeyEnv ? config.env[apiKeyEnv] : undefined;
  if (key) env.ANTHROPIC_API_KEY = key;
  if (isolated) env.CLAUDE_CONFIG_DIR = isolatedHome(config);
  if (config.telemetry) Object.assign(env, CLAUDE_TELEMETRY_ENV);
  // Claude refuses to bypass permissions as root unless told it runs in a sandbox.
  const bypass = args.includes('bypassPermissions') || args.includes('--dangerously-skip-permissions');
  if (bypass && process.getuid?.() === 0) env.IS_SANDBOX ??= '1';
  return env;
}
