import type { Failure } from '../../core/errors/failure.js';
import { httpStatusClass, retryAfterMs } from '../../core/http-status.js';

const BODY_IN_MESSAGE_CHARS = 500;

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
  const byStatus = httpStatusClass(status);
  if (byStatus === 'auth_failed') {
    return {
      class: 'auth_failed',
      message,
      hint: keyEnv ? `Check the API key in ${keyEnv} (adapters.${adapterName}.api_key_env).` : `Set adapters.${adapterName}.api_key_env to the variable holding the API key.`,
    };
  }
  if (byStatus === 'rate_limited') {
    const wait = retryAfterMs(retryAfter);
    return { class: 'rate_limited', message, ...(wait !== undefined ? { retryAfterMs: wait } : {}), hint: 'Wait, lower max_concurrency, or declare fallbacks.' };
  }
  if (byStatus === 'server_error') return { class: 'server_error', message, hint: 'The model server failed; a retry policy on the step retries it.' };
  if (/context|too long|maximum.*tokens/i.test(detail)) return { class: 'context_exhausted', message };
  return { class: 'non_zero_exit', message, hint: `Check adapters.${adapterName}.base_url and model.` };
}
