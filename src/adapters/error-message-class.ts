import type { FailureClass } from '../core/errors/error-codes.js';

/**
 * The failure class an agent CLI's error message names: its messages carry the HTTP status, the kind of break, or
 * the login problem in words. Used where a CLI reports failures only as text (Codex events, cursor-agent's stderr).
 */
export function errorMessageClass(message: string): FailureClass {
  if (/\b401\b|\b403\b|unauthori[sz]ed|forbidden|authentication required|not (logged|signed) in|invalid api key/i.test(message)) return 'auth_failed';
  if (/\b429\b|too many requests|rate limit/i.test(message)) return 'rate_limited';
  if (/idle timeout/i.test(message)) return 'stalled';
  if (/context.{0,20}(length|window)|too many tokens/i.test(message)) return 'context_exhausted';
  if (/\b5\d\d\b|high demand|stream disconnected|internal server error/i.test(message)) return 'server_error';
  return 'non_zero_exit';
}
