import { isolatedHome } from '../agent-process.js';
import { promptAsWords, promptTooLargeForArgument } from '../../process/argument-limit.js';
import { resumedSession } from '../session.js';
import { collectorBaseUrl } from '../telemetry-env.js';
import type { AdapterRunConfig, AttemptTelemetry, CliEnvInput } from '../types.js';
import { geminiPolicyArgs } from './policy-file.js';

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

/** How Gemini gets the prompt: `-p`, its words as the last arguments, or stdin. */
export type GeminiPrompt = { via: 'flag' } | { via: 'words'; words: string[] } | { via: 'stdin' };

/**
 * `-p` when the prompt fits one argument; else its words (Gemini joins positional words with one space), since on
 * stdin Gemini waits only 500 ms for the first bytes and a busy machine makes it start with none; stdin only when
 * the words cannot carry it.
 */
export function geminiPrompt(config: AdapterRunConfig): GeminiPrompt {
  if (!promptTooLargeForArgument(config.prompt)) return { via: 'flag' };
  const words = promptAsWords(config.prompt);
  return words ? { via: 'words', words } : { via: 'stdin' };
}

/**
 * The argv of `gemini -p <prompt> --output-format stream-json` (or the prompt's words last), approving tools (--yolo
 * needs --skip-trust) but those the persona's policy file denies; `--resume <session uuid>` on a continued attempt (headless, it takes the uuid as well as an index).
 */
export function buildGeminiArgs(config: AdapterRunConfig, prompt: GeminiPrompt = geminiPrompt(config)): string[] {
  const model = config.model ?? config.adapter.model;
  const session = resumedSession(config);
  return [
    ...(prompt.via === 'flag' ? ['-p', config.prompt] : []),
    ...['--output-format', 'stream-json', '--yolo', '--skip-trust'],
    ...geminiPolicyArgs(config),
    ...(model ? ['-m', model] : []),
    ...(session ? ['--resume', session] : []),
    ...(config.adapter.args ?? []),
    ...(prompt.via === 'words' ? prompt.words : []),
  ];
}

/** Gemini CLI's switches for its own OpenTelemetry export to the run's collector (it appends the /v1/… paths), never its prompts (Wave cannot redact them there). */
function geminiTelemetryEnv(telemetry: AttemptTelemetry): Record<string, string> {
  return {
    GEMINI_TELEMETRY_ENABLED: 'true',
    GEMINI_TELEMETRY_TARGET: 'local',
    GEMINI_TELEMETRY_OTLP_ENDPOINT: collectorBaseUrl(telemetry),
    GEMINI_TELEMETRY_OTLP_PROTOCOL: 'http',
    GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
  };
}

/** Gemini's environment: the step's env, base URL and key, GEMINI_CLI_HOME in the attempt when isolated, its telemetry when traced. */
export function buildGeminiEnv(config: CliEnvInput): Record<string, string> {
  const env: Record<string, string> = { ...config.env };
  const { baseUrl, apiKeyEnv, isolated } = config.adapter;
  if (baseUrl) env.GOOGLE_GEMINI_BASE_URL = baseUrl;
  const key = apiKeyEnv ? config.env[apiKeyEnv] : undefined;
  if (key) env.GEMINI_API_KEY = key;
  else if (baseUrl) env.GEMINI_API_KEY ??= PLACEHOLDER_KEY;
  if (isolated) env.GEMINI_CLI_HOME = isolatedHome(config);
  if (config.telemetry) Object.assign(env, geminiTelemetryEnv(config.telemetry));
  return env;
}
