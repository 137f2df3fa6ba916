import type { Failure } from '../../core/errors/failure.js';

/** How a key reaches the CLI, whose environment is curated: a key exported in the shell reaches it only when the manifest lets it through. */
export const REACH_THE_STEP = "list it in runtime.sandbox.env_passthrough (or give it in the adapter's env, or name it in api_key_env) so the step sees it";

/** Gemini CLI with a base URL and no auth type in its settings picks "gateway", then refuses it ("Invalid auth method selected."). */
export const GEMINI_GATEWAY_HINT =
  'Set isolated: true on the adapter (Wave then selects API-key auth), or set security.auth.selectedType to gemini-api-key in ~/.gemini/settings.json.';

/** The failure with its CLI's login hint when it is an `auth_failed` one; any other failure as it is. */
export function withLoginHint(failure: Failure, hint: string): Failure {
  return failure.class === 'auth_failed' ? { ...failure, hint } : failure;
}

/** Why an isolated adapter's CLI finds no login: its config home is its own. */
export const ISOLATED_KEEPS_LOGIN_OUT = 'isolated: true keeps the CLI from your own login, so only an API key or a base_url reaches the model';

/** An `auth_failed` hint that leads with why the login is out of sight, when only a login would have helped an isolated adapter; any other failure as it is. */
export function withIsolationHint(failure: Failure, loginOutOfSight: boolean): Failure {
  if (!loginOutOfSight || failure.class !== 'auth_failed') return failure;
  return { ...failure, hint: [`The adapter's ${ISOLATED_KEEPS_LOGIN_OUT}.`, failure.hint ?? 'Give it an API key or a base_url.'].join(' ') };
}
