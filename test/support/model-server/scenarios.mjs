// The scenarios every protocol handler of the scripted model server shares: what to answer, and errors.

/** The scripted answers: a text answer, prose around a fenced JSON block, or a sequence by request index. */
export const FENCED_ANSWER = 'Here is the review you asked for.\n\n```json\n{"verdict": "approve", "findings": [],}\n```\n\nLet me know if you need more.';

/** The answers of `fixonfeedback`: a review whose verdict fails the tests' schema (with a marker to find it by), then a valid one. */
export const FIRST_REVIEW = 'FIRST-ANSWER-QX7\n```json\n{"verdict": "maybe", "findings": []}\n```';
export const FIXED_REVIEW = '```json\n{"verdict": "approve", "findings": []}\n```';

/** The verdicts of the `review` scenario, in the JSON an agent_review asks its reviewer for. */
export const REVIEW_FAIL =
  '{"verdict": "fail", "issues": [{"severity": "major", "description": "The verdict is not approve."}], "suggestions": [], "confidence": 0.9, "summary": "The first answer is not final."}';
export const REVIEW_PASS = 'Reviewed.\n```json\n{"verdict": "pass", "issues": [], "suggestions": [], "confidence": 0.8, "summary": "The answer is final."}\n```';

/** What Wave's retry feedback starts with; a conversation carrying it has been told what failed. */
export const FEEDBACK_HEADING = '## Previous attempt';

/** Encodes a list of answers for `/s/seq/<param>/…`: strings are text answers, objects are { status, retry_after, text }. */
export function encodeSequence(answers) {
  return Buffer.from(JSON.stringify(answers)).toString('base64url');
}

/**
 * The scripted reply for a request: { text } for an answer, { status, retryAfter, message } for an HTTP error,
 * { hang: true }, { stall: true }, { usageStall: true } or { truncate: true } for broken streams.
 */
export function replyFor(ctx) {
  const [param] = ctx.params;
  switch (ctx.scenario) {
    case 'text':
      return { text: param !== undefined ? decodeURIComponent(param) : 'Hello from the model server.' };
    case 'fenced':
      return { text: FENCED_ANSWER };
    case 'seq': {
      const answers = JSON.parse(Buffer.from(param ?? '', 'base64url').toString('utf8'));
      const answer = answers[Math.min(ctx.requestIndex, answers.length - 1)];
      if (typeof answer === 'string') return { text: answer };
      if (answer.status) return { status: answer.status, retryAfter: answer.retry_after, message: answer.text ?? `scripted ${answer.status}` };
      return { text: answer.text ?? '' };
    }
    case 'fixonfeedback': {
      // Routed by content, not by request count (CLIs add title or retry requests): a conversation carrying Wave's
      // retry feedback gets FIXED_REVIEW; any other FIRST_REVIEW, or an HTTP 500 with `fixonfeedback/<tag>/http500`.
      if (JSON.stringify(ctx.body ?? '').includes(FEEDBACK_HEADING)) return { text: FIXED_REVIEW };
      if (ctx.params[1] === 'http500') return { status: 500, message: 'internal server error' };
      return { text: FIRST_REVIEW };
    }
    case 'review':
      // A reviewer: fails the work while it still carries the marker of fixonfeedback's first answer, passes it after.
      return { text: JSON.stringify(ctx.body ?? '').includes('FIRST-ANSWER-QX7') ? REVIEW_FAIL : REVIEW_PASS };
    case 'http401':
      return { status: 401, message: 'invalid api key' };
    case 'http429':
      return { status: 429, retryAfter: param ?? '1', message: 'rate limit reached' };
    case 'http500':
      return { status: 500, message: 'internal server error' };
    case 'hang':
      return { hang: true };
    case 'stall':
      return { stall: true, text: 'I will answer', rest: ' and then never do.' };
    case 'usagestall':
      // Reports the usage so far (a long answer's running cost), then never finishes: only the caller can end it.
      return { usageStall: true, text: 'Working on it' };
    case 'truncated':
      return { truncate: true, text: '{"verdict": "appro' };
    default:
      return { text: `unknown scenario ${ctx.scenario}` };
  }
}

/** Sends a JSON error response with an optional retry-after header. */
export function sendError(res, status, message, retryAfter) {
  const headers = { 'content-type': 'application/json' };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error: { message, type: status === 429 ? 'rate_limit_error' : 'api_error', code: status } }));
}
