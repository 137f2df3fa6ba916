import type { AdapterType } from '../core/resolved-adapter.js';
import type { Failure } from '../core/failure.js';

// A step's environment is curated: a key exported in the shell reaches the CLI only when the manifest lets it through.
const REACH = "list it in runtime.sandbox.env_passthrough (or give it in the adapter's env, or name it in api_key_env) so the step sees it";

/** What to do when an agent CLI has no credentials, or had them refused: its own login command, or a key the step sees. */
export const LOGIN_HINTS: Readonly<Partial<Record<AdapterType, string>>> = Object.freeze({
  claude: `Run \`claude\` and log in with /login (or \`claude auth login\`), or set a valid API key in ANTHROPIC_API_KEY and ${REACH}.`,
  codex: `Log in with \`codex login\` (for an API key: \`printenv OPENAI_API_KEY | codex login --with-api-key\`), or set an API key in CODEX_API_KEY and ${REACH}.`,
  gemini: `Set an API key in GEMINI_API_KEY and ${REACH}, or run \`gemini\` once and sign in with Google.`,
  opencode: `Log in with \`opencode auth login\`, or set the provider's API key variable (such as ANTHROPIC_API_KEY or OPENAI_API_KEY) and ${REACH}.`,
  cursor: `Set an API key in CURSOR_API_KEY and ${REACH}, or log in with \`cursor-agent login\`.`,
});

/** Gemini CLI with a base URL and no auth type in its settings picks "gateway", then refuses it ("Invalid auth method selected."). */
export const GEMINI_GATEWAY_HINT =
  'Set isolated: true on the adapter (Wave then selects API-key auth), or set security.auth.selectedType to gemini-api-key in ~/.gemini/settings.json.';

/** The failure with its CLI's login hint when it is an `auth_failed` one; any other failure as it is. */
export function withLoginHint(failure: Failure, type: AdapterType): Failure {
  const hint = LOGIN_HINTS[type];
  return failure.class === 'auth_failed' && hint ? { ...failure, hint } : failure;
}
