import type { AgentCli } from '../agent-cli.js';
import type { AdapterRunConfig } from '../types.js';
import { buildGeminiArgs, buildGeminiEnv, geminiPrompt } from './invocation.js';
import { GeminiStream } from './outcome.js';
import { geminiUnsavedSession } from './saved-session.js';
import { prepareGeminiWorkspace } from './workspace.js';

/** Gemini CLI as the shared agent runner drives it: `gemini -p <prompt> --output-format stream-json` (a large prompt as its words). */
export const GEMINI_CLI: AgentCli = {
  async prepare(config: AdapterRunConfig) {
    await prepareGeminiWorkspace(config);
    const prompt = geminiPrompt(config);
    return { args: buildGeminiArgs(config, prompt), env: buildGeminiEnv(config), ...(prompt.via === 'stdin' ? { stdin: config.prompt } : {}) };
  },
  stream: () => new GeminiStream(),
  // `--resume` with a session Gemini CLI has no chat file of: exit 42, this on stderr, before any request.
  refusedResume: /Error resuming session|Invalid session identifier/,
  // A request that failed leaves the session without a turn to resume (0.61.0): Gemini refuses `--resume` of it.
  unsavedSession: (config, env, sessionId) => geminiUnsavedSession(config, env, sessionId),
};
