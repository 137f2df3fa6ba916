import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { writeInstructionFile } from '../instructions.js';
import type { AdapterRunConfig } from '../types.js';
import { OPENCODE_PROVIDER, openCodeModel } from './invocation.js';
import { installStepSkills } from '../skills.js';
import { openCodePermissions } from './permissions.js';

/** OpenCode's project config, which Wave writes whole into the workspace. */
export const OPENCODE_CONFIG_PATH = 'opencode.json';

/** Where OpenCode reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory. */
export const OPENCODE_SKILLS_FOLDER = '.opencode/skills';

/** The file OpenCode reads the persona's prompt from, in its working directory. */
export const OPENCODE_INSTRUCTIONS_FILE = 'AGENTS.md';

/** opencode.json: Wave's OpenAI-compatible provider when the adapter has a base_url, the model, permissions. */
export function openCodeConfig(config: AdapterRunConfig): Record<string, unknown> {
  const model = openCodeModel(config);
  const { baseUrl, apiKeyEnv } = config.adapter;
  const modelId = model?.slice(OPENCODE_PROVIDER.length + 1) ?? 'default';
  const provider = baseUrl
    ? {
        provider: {
          [OPENCODE_PROVIDER]: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Wave',
            options: { baseURL: baseUrl, apiKey: apiKeyEnv ? `{env:${apiKeyEnv}}` : 'none' },
            models: { [modelId]: { name: modelId, tool_call: true, temperature: true, limit: { context: 128_000, output: 8_192 } } },
          },
        },
      }
    : {};
  return {
    $schema: 'https://opencode.ai/config.json',
    ...provider,
    ...(model ? { model, small_model: model } : {}),
    autoupdate: false,
    share: 'disabled',
    // Traced: the model calls' spans too (OpenCode's own follow the OTEL_* variables).
    ...(config.telemetry ? { experimental: { openTelemetry: true } } : {}),
    // `opencode run` works as its primary agent, `build`: the persona's temperature is that agent's.
    ...(config.persona?.temperature !== undefined ? { agent: { build: { temperature: config.persona.temperature } } } : {}),
    permission: {
      ...openCodePermissions(config.persona?.allowedTools ?? [], config.persona?.deniedTools ?? [], (config.skills?.length ?? 0) > 0, config.workspace),
      // Inside Wave's sandbox the sandbox is the boundary; headless, OpenCode's own "ask" for paths outside the
      // workspace is always a refusal, which would keep it from the system folders the sandbox shows it.
      ...(config.spawn ? { external_directory: 'allow' } : {}),
    },
  };
}

/** Writes opencode.json and the persona's AGENTS.md into the workspace, and the isolated home when asked. */
export async function prepareOpenCodeWorkspace(config: AdapterRunConfig): Promise<void> {
  if (config.adapter.isolated) await mkdir(isolatedHome(config), { recursive: true });
  await writeFile(join(config.workspace, OPENCODE_CONFIG_PATH), `${JSON.stringify(openCodeConfig(config), null, 2)}\n`);
  await writeInstructionFile(join(config.workspace, OPENCODE_INSTRUCTIONS_FILE), config.persona?.systemPrompt ?? '');
  await installStepSkills(OPENCODE_SKILLS_FOLDER, config.skills, config.workspace);
}
