import type { AgentCli } from '../agent-cli.js';
import type { AdapterRunConfig } from '../types.js';
import { buildCursorArgs, buildCursorEnv, cursorPromptOnStdin } from './invocation.js';
import { CursorStream } from './outcome.js';
import { prepareCursorWorkspace } from './workspace.js';

/** Cursor's headless CLI as the shared agent runner drives it: `cursor-agent -p --output-format stream-json <prompt>` (a large prompt on stdin). */
export const CURSOR_CLI: AgentCli = {
  async prepare(config: AdapterRunConfig) {
    await prepareCursorWorkspace(config);
    return { args: buildCursorArgs(config), env: buildCursorEnv(config), ...(cursorPromptOnStdin(config) ? { stdin: config.prompt } : {}) };
  },
  stream: () => new CursorStream(),
};
