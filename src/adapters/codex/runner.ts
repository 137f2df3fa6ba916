import type { AgentCli } from '../agent-process.js';
import type { AdapterRunConfig } from '../types.js';
import { buildCodexArgs, buildCodexEnv } from './invocation.js';
import { CodexStream } from './outcome.js';
import { prepareCodexWorkspace } from './workspace.js';

/** Codex as the shared agent runner drives it: `codex exec --json <prompt>`. */
export const CODEX_CLI: AgentCli = {
  defaultBinary: 'codex',
  async prepare(config: AdapterRunConfig) {
    await prepareCodexWorkspace(config);
    return { args: buildCodexArgs(config), env: buildCodexEnv(config) };
  },
  stream: () => new CodexStream(),
};
