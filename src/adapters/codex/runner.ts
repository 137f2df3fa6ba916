import type { AgentCli } from '../agent-cli.js';
import type { AdapterRunConfig } from '../types.js';
import { buildCodexArgs, buildCodexEnv, codexPromptOnStdin } from './invocation.js';
import { CodexStream } from './outcome.js';
import { prepareCodexWorkspace } from './workspace.js';

/** Codex as the shared agent runner drives it: `codex exec --json <prompt>` (a large prompt on stdin). */
export const CODEX_CLI: AgentCli = {
  async prepare(config: AdapterRunConfig) {
    await prepareCodexWorkspace(config);
    return { args: buildCodexArgs(config), env: buildCodexEnv(config), ...(codexPromptOnStdin(config) ? { stdin: config.prompt } : {}) };
  },
  stream: (config: AdapterRunConfig) => new CodexStream(config.continueFrom?.sessionTokens),
  // `exec resume` with a thread Codex has no rollout of: exit 1, this on stderr, before any request.
  refusedResume: /no rollout found for thread id|thread\/resume failed/,
};
