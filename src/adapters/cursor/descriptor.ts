import { AGENT_CLI_MODELS } from '../../core/models/agent-cli-models.js';
import type { AgentCliDescriptor } from '../agent-cli.js';
import { CURSOR_LOGIN_HINT } from './outcome.js';
import { CURSOR_CLI } from './runner.js';
import { CURSOR_CONFIG_PATH, CURSOR_INSTRUCTIONS_FILE } from './workspace.js';

/** Cursor's headless CLI, cursor-agent: everything Wave knows of it. */
export const cursorCli: AgentCliDescriptor<'cursor'> = {
  type: 'cursor',
  binary: 'cursor-agent',
  // Not on npm: Cursor's own script installs it into ~/.local/bin.
  install: { command: 'curl https://cursor.com/install -fsS | bash' },
  keyVariables: ['CURSOR_API_KEY'],
  // Wave reads no login file of cursor-agent's: a key is the access it can see.
  login: {
    files: () => [],
    variables: {},
    hosts: [],
  },
  // cursor-agent has no base-URL option: it always talks to Cursor's own API.
  endpoint: { variables: [], fallback: 'https://api2.cursor.sh' },
  // Wave has no login check for it: `wave doctor` shows its access mode only.
  loginStatus: null,
  loginHint: CURSOR_LOGIN_HINT,
  configFiles: [CURSOR_CONFIG_PATH],
  instructionsFile: CURSOR_INSTRUCTIONS_FILE,
  skillsFolder: null,
  skillCommandsFolder: null,
  models: AGENT_CLI_MODELS.cursor,
  runner: CURSOR_CLI,
};
