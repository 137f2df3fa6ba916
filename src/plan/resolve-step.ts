import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ResolvedAdapter, ResolvedPersona } from '../core/resolved-adapter.js';
import { durationMs } from '../config/schema/common-schema.js';
import { adapterTypeOf } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { RetryConfig, Step } from '../config/schema/pipeline-schema.js';
import { WaveError } from '../core/errors/errors.js';
import type { RetryPolicy } from './plan-types.js';
import { adapterModel } from './resolve-model.js';
import { builtinAdapter } from '../config/schema/wave-builtin-adapters.js';

const DEFAULT_STEP_MINUTES = 30;
const DEFAULT_RETRY_MAX_DELAY_MS = 60_000;

/** Wave's named retry presets; explicit fields override them. */
const RETRY_PRESETS: Record<string, Partial<RetryPolicy>> = {
  none: { maxAttempts: 1, backoff: 'fixed', baseDelayMs: 0, maxDelayMs: 0 },
  standard: { maxAttempts: 3, backoff: 'exponential', baseDelayMs: 1000, maxDelayMs: 30_000 },
  aggressive: { maxAttempts: 5, backoff: 'exponential', baseDelayMs: 200, maxDelayMs: 30_000 },
  patient: { maxAttempts: 3, backoff: 'exponential', baseDelayMs: 5000, maxDelayMs: 90_000 },
};

/** The adapter that runs `exec.type: command` steps: a shell, no agent. */
export const COMMAND_ADAPTER: ResolvedAdapter = Object.freeze({
  name: 'command',
  type: 'process',
  binary: '/bin/sh',
  env: {},
  isolated: false,
});

/** An adapter of the manifest with its defaults filled in. */
export function resolveAdapter(manifest: Manifest, name: string): ResolvedAdapter {
  const config = manifest.adapters?.[name];
  const builtin = config ? undefined : builtinAdapter(name);
  if (builtin) return builtin;
  if (!config) throw new WaveError('unknown_adapter', `adapter \`${name}\` is not declared in the manifest`);
  const type = adapterTypeOf(name, config);
  return {
    name,
    type,
    binary: config.binary,
    args: config.args,
    model: adapterModel(type, config),
    ...(config.tier_models ? { tierModels: config.tier_models } : {}),
    env: stringRecord(config.env),
    isolated: config.isolated ?? false,
    baseUrl: config.base_url,
    apiKeyEnv: config.api_key_env,
    prices: config.prices,
    ...(config.module !== undefined ? { module: config.module } : {}),
  };
}

/** A persona with its system prompt read from the manifest's folder. */
export function resolvePersona(manifest: Manifest, manifestDir: string, name: string): ResolvedPersona {
  const persona = manifest.personas?.[name];
  if (!persona) throw new WaveError('unknown_persona', `persona \`${name}\` is not declared in the manifest`);
  const adapterDefaults = manifest.adapters?.[persona.adapter]?.default_permissions;
  return {
    name,
    systemPrompt: persona.system_prompt_file ? personaPrompt(resolve(manifestDir, persona.system_prompt_file)) : '',
    allowedTools: persona.permissions?.allowed_tools ?? adapterDefaults?.allowed_tools ?? [],
    deniedTools: persona.permissions?.deny ?? adapterDefaults?.deny ?? [],
    allowedDomains: persona.sandbox?.allowed_domains ?? [],
    skills: persona.skills ?? [],
    ...(persona.temperature !== undefined ? { temperature: persona.temperature } : {}),
  };
}

/** The file beside a persona's prompt whose text every persona of that folder starts with. */
export const BASE_PROTOCOL_FILE = 'base-protocol.md';

/** A persona's prompt, with base-protocol.md from the same folder prepended when it exists (and is not the prompt itself). */
export function personaPrompt(promptPath: string): string {
  const prompt = readFileSync(promptPath, 'utf8');
  const basePath = join(dirname(promptPath), BASE_PROTOCOL_FILE);
  if (basePath === promptPath || !existsSync(basePath)) return prompt;
  return `${readFileSync(basePath, 'utf8').trimEnd()}\n\n${prompt}`;
}

/** Step timeout: step > --timeout > runtime default > 30 minutes. */
export function stepTimeoutMs(step: Step, manifest: Manifest, cliMinutes?: number): number {
  const runtime = manifest.runtime;
  const minutes = step.timeout_minutes ?? cliMinutes ?? runtime?.timeouts?.step_default_minutes ?? runtime?.default_timeout_minutes ?? DEFAULT_STEP_MINUTES;
  return minutes * 60_000;
}

/** The retry policy of a step: a preset, then explicit fields, then defaults (one attempt). */
export function retryPolicy(retry: RetryConfig | undefined, manifest: Manifest): RetryPolicy {
  const preset = retry?.policy ? RETRY_PRESETS[retry.policy] : {};
  const maxDelaySeconds = manifest.runtime?.timeouts?.retry_max_delay_seconds;
  return {
    maxAttempts: retry?.max_attempts ?? preset?.maxAttempts ?? 1,
    backoff: retry?.backoff ?? preset?.backoff ?? 'linear',
    baseDelayMs: retry?.base_delay !== undefined ? durationMs(retry.base_delay) : (preset?.baseDelayMs ?? 1000),
    maxDelayMs:
      retry?.max_delay !== undefined ? durationMs(retry.max_delay) : (preset?.maxDelayMs ?? (maxDelaySeconds !== undefined ? maxDelaySeconds * 1000 : DEFAULT_RETRY_MAX_DELAY_MS)),
    // Wave now always tells a retry what failed; `adapt_prompt: false` asks for the original prompt instead.
    adaptPrompt: retry?.adapt_prompt ?? true,
    continueSession: retry?.continue_session ?? true,
    // A rework that fails too fails the step: `rework` is `fail` with a step to try first.
    onFailure: retry?.on_failure === 'rework' ? 'fail' : (retry?.on_failure ?? 'fail'),
    ...(retry?.on_failure === 'rework' && retry.rework_step !== undefined ? { reworkStep: retry.rework_step } : {}),
  };
}

/** Stringifies the values of an env mapping. */
export function stringRecord(env: Record<string, string | number | boolean> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, String(v)]));
}
