import { isolatedHome } from '../agent-process.js';
import { promptTooLargeForArgument } from '../argument-limit.js';
import type { AdapterRunConfig } from '../types.js';

/** The variable holding the key when the adapter names no api_key_env and talks to a base_url (a local server needs none). */
const PLACEHOLDER_KEY = 'none';

/** Gemini CLI settings: API-key auth (needed with a base URL), no usage statistics, telemetry or updates, retries capped. */
export function geminiSettings(temperature?: number): Record<string, unknown> {
  return {
    // Every chat model resolves through the `chat-base` alias, so this override reaches the agent's own calls.
    ...(temperature !== undefined ? { modelConfigs: { customOverrides: [{ match: { model: 'chat-base' }, modelConfig: { generateContentConfig: { temperature } } }] } } : {}),
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 2 },
  };
}

/** Whether Gemini gets the prompt on stdin (headless, as stdin is not a terminal): one too large for an argument (E2BIG) goes there. */
export function geminiPromptOnStdin(config: AdapterRunConfig): boolean {
  return promptTooLargeForArgument(config.prompt);
}

/** The argv of `gemini -p <prompt> --output-format stream-json`, approving tools (--yolo needs --skip-trust); no -p when the prompt goes to stdin. */
export function buildGeminiArgs(config: AdapterRunConfig): string[] {
  const model = config.model ?? config.adapter.model;
  const prompt = geminiPromptOnStdin(config) ? [] : ['-p', config.prompt];
  return [...prompt, '--output-format', 'stream-json', '--yolo', '--skip-trust', ...(model ? ['-m', model] : []), ...(config.adapter.args ?? [])];
}

/** Gemini's environment: the step's env, base URL and key, GEMINI_CLI_HOME in the attempt when isolated. */
export function buildGeminiEnv(config: AdapterRunConfig): Record<string, string> {
  const env: Record<string, string> = { ...config.env };
  const { baseUrl, apiKeyEnv, isolated } = config.adapter;
  if (baseUrl) env.GOOGLE_GEMINI_BASE_URL = baseUrl;
  const key = apiKeyEnv ? config.env[apiKeyEnv] : undefined;
  if (key) env.GEMINI_API_KEY = key;
  else if (baseUrl) env.GEMINI_API_KEY ??= PLACEHOLDER_KEY;
  if (isolated) env.GEMINI_CLI_HOME = isolatedHome(config);
  return env;
}
