import type { AgentCli } from '../agent-process.js';
import type { AdapterRunConfig } from '../types.js';
import { buildCodexArgs, buildCodexEnv, codexPromptOnStdin } from './invocation.js';
import { CodexStream } from './outcome.js';
import { prepareCodexWorkspace } from './workspace.js';

/** Codex as the shared agent runner drives it: `codex exec --json <prompt>` (a large prompt on stdin). */
export const CODEX_CLI: AgentCli = {
  defaultBinary: 'codex',
  async prepare(config: AdapterRunConfig) {
    await prepareCodexWorkspace(config);
    return { args: buildCodexArgs(config), env: buildCodexEnv(config), ...(codexPromptOnStdin(config) ? { stdin: config.prompt } : {}) };
  },
  stream: () => new CodexStream(),
};
