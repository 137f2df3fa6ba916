import type { AgentCli } from '../agent-cli.js';
import type { AdapterRunConfig } from '../types.js';
import { buildOpenCodeArgs, buildOpenCodeEnv, openCodePromptOnStdin } from './invocation.js';
import { OpenCodeStream } from './outcome.js';
import { prepareOpenCodeWorkspace } from './workspace.js';

/** OpenCode as the shared agent runner drives it: `opencode run --format json <prompt>` (a large prompt on stdin). */
export const OPENCODE_CLI: AgentCli = {
  async prepare(config: AdapterRunConfig) {
    await prepareOpenCodeWorkspace(config);
    return { args: buildOpenCodeArgs(config), env: buildOpenCodeEnv(config), ...(openCodePromptOnStdin(config) ? { stdin: config.prompt } : {}) };
  },
  stream: () => new OpenCodeStream(),
  // `run --session` with a session OpenCode does not know: exit 1, "Error: Session not found" on stderr, before any request.
  refusedResume: /Session not found/,
};
