import { isolatedHome } from '../agent-process.js';
import { promptTooLargeForArgument } from '../../process/argument-limit.js';
import { resumedSession } from '../session.js';
import type { AdapterRunConfig } from '../types.js';

/** Whether cursor-agent gets the prompt on stdin (print mode reads it there when no prompt argument is given): one too large for an argument (E2BIG) goes there. */
export function cursorPromptOnStdin(config: AdapterRunConfig): boolean {
  return promptTooLargeForArgument(config.prompt);
}

/**
 * The argv of `cursor-agent -p --output-format stream-json`: --force runs tools without asking (nobody can answer
 * headless; denied tools stay denied), --trust accepts the step's workspace, the documented `--resume <chat id>` on
 * a continued attempt; the prompt last, unless it goes to stdin.
 */
export function buildCursorArgs(config: AdapterRunConfig): string[] {
  const model = config.model ?? config.adapter.model;
  const prompt = cursorPromptOnStdin(config) ? [] : [config.prompt];
  const session = resumedSession(config);
  return [
    ...['-p', '--output-format', 'stream-json', '--force', '--trust'],
    ...(model ? ['--model', model] : []),
    ...(session ? ['--resume', session] : []),
    ...(config.adapter.args ?? []),
    ...prompt,
  ];
}

/** cursor-agent's environment: the step's env, CURSOR_API_KEY from the adapter's api_key_env, CURSOR_CONFIG_DIR in the attempt when isolated. */
export function buildCursorEnv(config: AdapterRunConfig): Record<string, string> {
  const env: Record<string, string> = { ...config.env };
  const { apiKeyEnv, isolated } = config.adapter;
  const key = apiKeyEnv ? config.env[apiKeyEnv] : undefined;
  if (key) env.CURSOR_API_KEY = key;
  if (isolated) env.CURSOR_CONFIG_DIR = isolatedHome(config);
  return env;
}
