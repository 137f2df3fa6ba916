import type { AgentCli } from '../agent-cli.js';
import type { AdapterRunConfig } from '../types.js';
import { buildClaudeArgs, buildClaudeEnv } from './invocation.js';
import { ClaudeStream } from './outcome.js';
import { prepareClaudeWorkspace } from './workspace.js';

/** Claude Code as the shared agent runner drives it: `claude -p` with the prompt on stdin. */
export const CLAUDE_CLI: AgentCli = {
  async prepare(config: AdapterRunConfig) {
    await prepareClaudeWorkspace(config);
    const args = buildClaudeArgs(config, config.persona?.systemPrompt ?? '');
    return { args, env: buildClaudeEnv(config, args), stdin: config.prompt };
  },
  stream: (config: AdapterRunConfig) => new ClaudeStream(config.continueFrom?.sessionCostUsd),
  // `-p --resume` with an id Claude has no transcript of: a result with this error, before any request.
  refusedResume: /No conversation found with session ID|--resume requires a valid session ID/,
};
