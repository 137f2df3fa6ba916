// OpenAI Chat Completions for the scripted model server: SSE when `stream: true`, JSON otherwise.
import { replyFor, sendError } from './scenarios.mjs';

/** Rough token count, enough for usage numbers that move with the text. */
const tokensOf = (text) => Math.max(1, Math.ceil(text.length / 4));

/** POST …/chat/completions. */
export function match(req, path) {
  return req.method === 'POST' && path.split('?')[0].endsWith('/chat/completions');
}

/** Answers one chat completion as the scenario says. */
export async function handle(ctx) {
  const { res, body } = ctx;
  const reply = replyFor(ctx);
  if (reply.hang) return; // Never answers; the client's timeout ends it.
  if (reply.status) return sendError(res, reply.status, reply.message, reply.retryAfter);
  const model = body?.model ?? 'scripted-model';
  const promptText = (body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  const usage = { prompt_tokens: tokensOf(promptText), completion_tokens: tokensOf(reply.text), total_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const id = `chatcmpl-${ctx.requestIndex}`;
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta, finish = null, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }));
  if (reply.stall) {
    res.write(chunk({ content: reply.text }));
    return; // First event, then nothing: the connection stays open.
  }
  if (reply.truncate) {
    res.write(chunk({ content: reply.text.slice(0, 6) }));
    // A data line cut in the middle of its JSON, then the connection ends without [DONE].
    res.end(chunk({ content: reply.text.slice(6) }).slice(0, 40));
    return;
  }
  for (let i = 0; i < reply.text.length; i += 16) res.write(chunk({ content: reply.text.slice(i, i + 16) }));
  res.write(chunk({}, 'stop'));
  if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}
