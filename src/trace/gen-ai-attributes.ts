import type { AdapterType } from '../core/resolved-adapter.js';
import type { TokenUsage } from '../core/models/tokens.js';
import type { Attributes } from './trace-span.js';

/** How the spans are written: what the user opted into. */
export interface TraceSettings {
  /** Tool arguments and results, and an agent's final answer, are kept on the spans (redacted like every other sink). */
  captureContent: boolean;
  /** OTEL_SEMCONV_STABILITY_OPT_IN lists `gen_ai_latest_experimental`: only the current gen_ai names, not the v1.36 ones beside them. */
  latestSemconvOnly: boolean;
}

// The adapters whose attempts are an agent or a model: their spans are `invoke_agent`; a command's or a browser's are not.
const PROVIDERS: Partial<Record<AdapterType, string>> = {
  claude: 'anthropic',
  codex: 'openai',
  gemini: 'gcp.gemini',
  cursor: 'cursor',
  opencode: 'opencode',
  llm: 'openai',
  plugin: 'plugin',
};

/** Whether an attempt on this adapter type is an agent or model invocation. */
export function invokesAgent(type: AdapterType | undefined): boolean {
  return type !== undefined && PROVIDERS[type] !== undefined;
}

/** `gen_ai.provider.name` of an attempt: OpenCode's model names its provider (`anthropic/claude-…`); the llm adapter speaks OpenAI's API. */
export function providerOf(type: AdapterType, model: string | undefined): string | undefined {
  if (type === 'opencode' && model?.includes('/')) return model.slice(0, model.indexOf('/'));
  return PROVIDERS[type];
}

/** The provider attribute under its current name, and its v1.36 name (`gen_ai.system`) beside it unless only the latest are wanted. */
export function providerAttributes(provider: string | undefined, settings: TraceSettings): Attributes {
  if (provider === undefined) return {};
  return settings.latestSemconvOnly ? { 'gen_ai.provider.name': provider } : { 'gen_ai.provider.name': provider, 'gen_ai.system': provider };
}

/** Token counts as the gen_ai.usage attributes, and the cost Wave priced (no standard attribute holds one). */
export function usageAttributes(tokens: TokenUsage, costUsd: number | undefined): Attributes {
  return {
    'gen_ai.usage.input_tokens': tokens.input,
    'gen_ai.usage.output_tokens': tokens.output,
    'gen_ai.usage.cache_read.input_tokens': tokens.cacheRead,
    'gen_ai.usage.cache_creation.input_tokens': tokens.cacheWrite,
    ...(costUsd !== undefined ? { 'wave.cost_usd': costUsd } : {}),
  };
}

/** Where OTEL_SEMCONV_STABILITY_OPT_IN and OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT leave the settings; the manifest's switch adds capture. */
export function traceSettingsOf(env: NodeJS.ProcessEnv, manifestCapture = false): TraceSettings {
  const optIn = (env.OTEL_SEMCONV_STABILITY_OPT_IN ?? '').split(',').map((entry) => entry.trim());
  const captureEnv = env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true';
  return { captureContent: manifestCapture || captureEnv, latestSemconvOnly: optIn.includes('gen_ai_latest_experimental') };
}
