import { join } from 'node:path';
import { AGENT_CLI_MODELS } from '../../core/models/agent-cli-models.js';
import type { AgentCliDescriptor } from '../agent-cli.js';
import { claudeLoginStatus } from './login-status.js';
import { CLAUDE_LOGIN_HINT } from './outcome.js';
import { CLAUDE_CLI } from './runner.js';
import { CLAUDE_COMMANDS_FOLDER } from './skill-commands.js';
import { CLAUDE_SETTINGS_PATH, CLAUDE_SKILLS_FOLDER } from './workspace.js';

/** Claude Code: everything Wave knows of it. */
export const claudeCli: AgentCliDescriptor<'claude'> = {
  type: 'claude',
  binary: 'claude',
  install: { package: '@anthropic-ai/claude-code' },
  keyVariables: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
  login: {
    // Its OAuth token is refreshed at platform.claude.com; inference goes to the endpoint.
    files: (env) => [join(env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? '', '.claude'), '.credentials.json')],
    variables: {},
    hosts: ['platform.claude.com'],
  },
  endpoint: { variables: ['ANTHROPIC_BASE_URL'], fallback: 'https://api.anthropic.com' },
  loginStatus: (cli, { binaryPath }) => claudeLoginStatus(cli, binaryPath),
  loginHint: CLAUDE_LOGIN_HINT,
  configFiles: [CLAUDE_SETTINGS_PATH],
  // The persona's prompt goes on the command line (--append-system-prompt).
  instructionsFile: null,
  skillsFolder: CLAUDE_SKILLS_FOLDER,
  skillCommandsFolder: CLAUDE_COMMANDS_FOLDER,
  models: AGENT_CLI_MODELS.claude,
  runner: CLAUDE_CLI,
};
