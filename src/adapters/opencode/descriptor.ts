import { join } from 'node:path';
import { AGENT_CLI_MODELS } from '../../core/models/agent-cli-models.js';
import type { AgentCliDescriptor } from '../agent-cli.js';
import { openCodeLoginStatus } from './login-status.js';
import { OPENCODE_LOGIN_HINT } from './outcome.js';
import { OPENCODE_CLI } from './runner.js';
import { OPENCODE_CONFIG_PATH, OPENCODE_INSTRUCTIONS_FILE, OPENCODE_SKILLS_FOLDER } from './workspace.js';

/** OpenCode: everything Wave knows of it. */
export const openCodeCli: AgentCliDescriptor<'opencode'> = {
  type: 'opencode',
  binary: 'opencode',
  install: { package: 'opencode-ai' },
  keyVariables: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
  login: {
    // Its auth.json holds provider credentials; each provider's host is the user's to allow.
    files: (env) => [join(env.XDG_DATA_HOME ?? join(env.HOME ?? '', '.local', 'share'), 'opencode', 'auth.json')],
    variables: {},
    hosts: [],
  },
  // A base URL reaches OpenCode only through the provider Wave writes into opencode.json; its own providers' are unknown.
  endpoint: { variables: [], fallback: null },
  loginStatus: (cli) => openCodeLoginStatus(cli),
  loginHint: OPENCODE_LOGIN_HINT,
  configFiles: [OPENCODE_CONFIG_PATH],
  instructionsFile: OPENCODE_INSTRUCTIONS_FILE,
  skillsFolder: OPENCODE_SKILLS_FOLDER,
  skillCommandsFolder: null,
  models: AGENT_CLI_MODELS.opencode,
  runner: OPENCODE_CLI,
};
