import { join } from 'node:path';
import { AGENT_CLI_MODELS } from '../../core/models/agent-cli-models.js';
import type { AgentCliDescriptor } from '../agent-cli.js';
import { geminiLoginStatus } from './login-status.js';
import { GEMINI_LOGIN_HINT } from './outcome.js';
import { GEMINI_CLI } from './runner.js';
import { GEMINI_INSTRUCTIONS_FILE, GEMINI_SKILLS_FOLDER } from './workspace.js';

/** Google's Gemini CLI: everything Wave knows of it. */
export const geminiCli: AgentCliDescriptor<'gemini'> = {
  type: 'gemini',
  binary: 'gemini',
  install: { package: '@google/gemini-cli' },
  keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  login: {
    // Signed in with Google, it talks to Code Assist and refreshes at Google's OAuth server; the variable selects that auth where no settings do.
    files: (env) => [join(env.GEMINI_CLI_HOME ?? env.HOME ?? '', '.gemini', 'oauth_creds.json')],
    variables: { GOOGLE_GENAI_USE_GCA: 'true' },
    hosts: ['cloudcode-pa.googleapis.com', 'oauth2.googleapis.com'],
  },
  endpoint: { variables: ['GOOGLE_GEMINI_BASE_URL'], fallback: 'https://generativelanguage.googleapis.com' },
  loginStatus: (cli, { projectDir }) => geminiLoginStatus(cli, projectDir),
  loginHint: GEMINI_LOGIN_HINT,
  // The policy file and an isolated attempt's settings.json go into the attempt's own folders, never the workspace.
  configFiles: [],
  instructionsFile: GEMINI_INSTRUCTIONS_FILE,
  skillsFolder: GEMINI_SKILLS_FOLDER,
  skillCommandsFolder: null,
  models: AGENT_CLI_MODELS.gemini,
  runner: GEMINI_CLI,
};
