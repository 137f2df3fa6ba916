import { join } from 'node:path';
import { AGENT_CLI_MODELS } from '../../core/models/agent-cli-models.js';
import type { AgentCliDescriptor } from '../agent-cli.js';
import { codexLoginStatus } from './login-status.js';
import { CODEX_LOGIN_HINT } from './outcome.js';
import { CODEX_CLI } from './runner.js';
import { CODEX_INSTRUCTIONS_FILE, CODEX_SKILLS_FOLDER } from './workspace.js';

/** OpenAI's Codex CLI: everything Wave knows of it. */
export const codexCli: AgentCliDescriptor<'codex'> = {
  type: 'codex',
  binary: 'codex',
  install: { package: '@openai/codex' },
  keyVariables: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  login: {
    // A ChatGPT login talks to chatgpt.com's backend API and refreshes at auth.openai.com.
    files: (env) => [join(env.CODEX_HOME ?? join(env.HOME ?? '', '.codex'), 'auth.json')],
    variables: {},
    hosts: ['chatgpt.com', 'auth.openai.com'],
  },
  endpoint: { variables: ['OPENAI_BASE_URL'], fallback: 'https://api.openai.com/v1' },
  loginStatus: (cli, { binaryPath }) => codexLoginStatus(cli, binaryPath),
  loginHint: CODEX_LOGIN_HINT,
  // An isolated attempt's config.toml goes into its own CODEX_HOME, never the workspace.
  configFiles: [],
  instructionsFile: CODEX_INSTRUCTIONS_FILE,
  skillsFolder: CODEX_SKILLS_FOLDER,
  skillCommandsFolder: null,
  models: AGENT_CLI_MODELS.codex,
  runner: CODEX_CLI,
};
