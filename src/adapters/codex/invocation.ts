import { isolatedHome } from '../agent-process.js';
import { promptTooLargeForArgument } from '../../process/argument-limit.js';
import { resumedSession } from '../session.js';
import type { AdapterRunConfig, AttemptTelemetry, CliEnvInput } from '../types.js';
import { codexPermissionSettings } from './permissions.js';

/** The provider name Wave declares for an adapter with a base_url. */
export const CODEX_PROVIDER = 'wave';
/** The variable holding the key when the adapter names no api_key_env (a local server needs none). */
export const CODEX_DEFAULT_KEY_ENV = 'WAVE_CODEX_API_KEY';

const toml = (value: string | number | boolean): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/**
 * Codex settings as `dotted.key = value` pairs, valid both as lines of config.toml and as `-c key=value`:
 * no approvals, full access (the sandbox is Wave's business) unless the persona may write no files, no update check,
 * analytics or plugins, the persona's tool switches (codex/permissions.ts), retries capped, and Wave's Responses
 * provider when the adapter has a base_url.
 */
export function codexSettings(config: AdapterRunConfig): Array<[string, string]> {
  const model = config.model ?? config.adapter.model;
  const permissions = codexPermissionSettings(config.persona?.allowedTools ?? [], config.persona?.deniedTools ?? []);
  const settings: Array<[string, string | number | boolean]> = [
    ...(model ? [['model', model] as [string, string]] : []),
    ['approval_policy', 'never'],
    ['sandbox_mode', permissions.find(([key]) => key === 'sandbox_mode')?.[1] ?? 'danger-full-access'],
    ['check_for_update_on_startup', false],
    ['analytics.enabled', false],
    ['feedback.enabled', false],
    ['features.plugins', false],
    ['features.apps', false],
    ['features.remote_plugin', false],
    ['features.tool_suggest', false],
    ...permissions.filter(([key]) => key !== 'sandbox_mode'),
  ];
  const { baseUrl, apiKeyEnv } = config.adapter;
  if (baseUrl) {
    const provider = `model_providers.${CODEX_PROVIDER}`;
    settings.push(
      ['model_provider', CODEX_PROVIDER],
      [`${provider}.name`, 'Wave'],
      [`${provider}.base_url`, baseUrl],
      [`${provider}.env_key`, apiKeyEnv ?? CODEX_DEFAULT_KEY_ENV],
      [`${provider}.wire_api`, 'responses'],
      [`${provider}.request_max_retries`, 1],
      [`${provider}.stream_max_retries`, 1],
    );
  }
  return [...settings.map(([key, value]): [string, string] => [key, toml(value)]), ...(config.telemetry ? codexTelemetrySettings(config.telemetry) : [])];
}

/** Codex's `[otel]` settings: its spans to the run's collector as OTLP/HTTP JSON (it joins TRACEPARENT's trace), never its prompts (Wave cannot redact them there). */
function codexTelemetrySettings(telemetry: AttemptTelemetry): Array<[string, string]> {
  const headers = Object.entries(telemetry.headers)
    .map(([name, value]) => `${JSON.stringify(name)} = ${JSON.stringify(value)}`)
    .join(', ');
  const exporter = `{ otlp-http = { endpoint = ${JSON.stringify(telemetry.tracesUrl)}, protocol = "json", headers = { ${headers} } } }`;
  return [
    ['otel.trace_exporter', exporter],
    ['otel.environment', toml('wave')],
    ['otel.log_user_prompt', toml(false)],
  ];
}

/** Whether Codex gets the prompt on stdin (`codex exec -`): one too large for an argument (E2BIG) goes there. */
export function codexPromptOnStdin(config: AdapterRunConfig): boolean {
  return promptTooLargeForArgument(config.prompt);
}

/**
 * The argv of `codex exec --json`: settings as -c overrides unless an isolated config.toml holds them; on a
 * continued attempt `resume <thread id>`; the prompt last, or `-` when it goes to stdin.
 */
export function buildCodexArgs(config: AdapterRunConfig): string[] {
  const overrides = config.adapter.isolated ? [] : codexSettings(config).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const prompt = codexPromptOnStdin(config) ? '-' : config.prompt;
  const session = resumedSession(config);
  return ['exec', '--json', '--skip-git-repo-check', '-C', config.workspace, ...overrides, ...(config.adapter.args ?? []), ...(session ? ['resume', session] : []), prompt];
}

/** Codex's environment: the step's env, CODEX_HOME in the attempt when isolated, a placeholder key for a local server. */
export function buildCodexEnv(config: CliEnvInput): Record<string, string> {
  const env: Record<string, string> = { ...config.env };
  if (config.adapter.isolated) env.CODEX_HOME = isolatedHome(config);
  if (config.adapter.baseUrl && !config.adapter.apiKeyEnv) env[CODEX_DEFAULT_KEY_ENV] ??= 'none';
  return env;
}
