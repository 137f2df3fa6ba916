import type { Failure } from '../types.js';

const BODY_IN_MESSAGE_CHARS = 500;

/** Milliseconds from a retry-after header: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's error message from a JSON error body, else the body's start. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (message) return message;
  } catch {
    // Not JSON: the raw body says what there is to say.
  }
  return body.slice(0, BODY_IN_MESSAGE_CHARS).trim();
}

/** Classifies a non-2xx response like the agent adapters' failures. */
export function httpFailure(status: number, body: string, retryAfter: string | null, adapterName: string, keyEnv?: string): Failure {
  const detail = messageOf(body);
  const message = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 401 || status === 403) {
    return {
      class: 'auth_failed',
      message,
      hint: keyEnv ? `Check the API key in ${keyEnv} (adapters.${adapterName}.api_key_env).` : `Set adapters.${adapterName}.api_key_env to the variable holding the API key.`,
    };
  }
  if (status === 429) {
    const wait = retryAfterMs(retryAfter);
    return { class: 'rate_limited', message, ...(wait !== undefined ? { retryAfterMs: wait } : {}), hint: 'Wait, lower max_concurrency, or declare fallbacks.' };
  }
  if (status >= 500) return { class: 'server_error', message, hint: 'The model server failed; a retry policy on the step retries it.' };
  if (/context|too long|maximum.*tokens/i.test(detail)) return { class: 'context_exhausted', message };
  return { class: 'non_zero_exit', message, hint: `Check adapters.${adapterName}.base_url and model.` };
}
