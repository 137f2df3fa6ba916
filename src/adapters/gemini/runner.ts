import type { AgentCli } from '../agent-process.js';
import type { AdapterRunConfig } from '../types.js';
import { buildGeminiArgs, buildGeminiEnv, geminiPromptOnStdin } from './invocation.js';
import { GeminiStream } from './outcome.js';
import { prepareGeminiWorkspace } from './workspace.js';

/** Gemini CLI as the shared agent runner drives it: `gemini -p <prompt> --output-format stream-json` (a large prompt on stdin). */
export const GEMINI_CLI: AgentCli = {
  defaultBinary: 'gemini',
  async prepare(config: AdapterRunConfig) {
    await prepareGeminiWorkspace(config);
    return { args: buildGeminiArgs(config), env: buildGeminiEnv(config), ...(geminiPromptOnStdin(config) ? { stdin: config.prompt } : {}) };
  },
  stream: () => new GeminiStream(),
};
