import { join } from 'node:path';
import type { AdapterRunConfig, CliEnvInput } from '../types.js';
import { isolatedHome } from '../agent-process.js';
import { promptTooLargeForArgument } from '../../process/argument-limit.js';
import { resumedSession } from '../session.js';

/** Variables that keep OpenCode from updating, sharing or downloading anything on its own. */
export const OPENCODE_QUIET_ENV: Readonly<Record<string, string>> = Object.freeze({
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
});

/** The provider name Wave declares in opencode.json for an adapter with a base_url. */
export const OPENCODE_PROVIDER = 'wave';

/** The model as OpenCode names it: `provider/model`; a bare name goes to Wave's provider when there is a base_url. */
export function openCodeModel(config: AdapterRunConfig): string | undefined {
  const model = config.model ?? config.adapter.model;
  if (!model) return config.adapter.baseUrl ? `${OPENCODE_PROVIDER}/default` : undefined;
  return config.adapter.baseUrl && !model.startsWith(`${OPENCODE_PROVIDER}/`) ? `${OPENCODE_PROVIDER}/${model}` : model;
}

/** Whether OpenCode gets the prompt on stdin (`run` with no message reads it all): one too large for an argument (E2BIG) goes there. */
export function openCodePromptOnStdin(config: AdapterRunConfig): boolean {
  return promptTooLargeForArgument(config.prompt);
}

/** The argv of `opencode run --format json` (`--session` on a continued attempt); the prompt is the last argument (stdin stays closed), or absent when it goes to stdin. */
export function buildOpenCodeArgs(config: AdapterRunConfig): string[] {
  const model = openCodeModel(config);
  const prompt = openCodePromptOnStdin(config) ? [] : [config.prompt];
  const session = resumedSession(config);
  // Error-level logs on stderr are the only sign of OpenCode's own retries; a clean run logs nothing at that level.
  return [
    ...['run', '--format', 'json', '--print-logs', '--log-level', 'ERROR'],
    ...(model ? ['--model', model] : []),
    ...(session ? ['--session', session] : []),
    ...(config.adapter.args ?? []),
    ...prompt,
  ];
}

/** OpenCode's environment: quiet defaults, the step's env over them, XDG folders in the attempt when isolated. */
export function buildOpenCodeEnv(config: CliEnvInput): Record<string, string> {
  const env: Record<string, string> = { ...OPENCODE_QUIET_ENV, ...config.env };
  if (config.adapter.isolated) {
    const home = isolatedHome(config);
    for (const [name, folder] of [
      ['XDG_CONFIG_HOME', 'config'],
      ['XDG_DATA_HOME', 'data'],
      ['XDG_CACHE_HOME', 'cache'],
      ['XDG_STATE_HOME', 'state'],
    ] as const) {
      env[name] = join(home, folder);
    }
  }
  return env;
}
