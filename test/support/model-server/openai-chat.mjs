// OpenAI Chat Completions for the scripted model server (OpenCode and the llm runner): SSE when `stream: true`,
// JSON otherwise. Agent scenarios answer with `tool_calls` carrying OpenCode's own tool names and arguments.
import { agentReplyFor, textOf, tokensOf } from './agent-scenarios.mjs';
import { sendError } from './scenarios.mjs';

/** OpenCode's own tool names and argument shapes (a relative filePath is joined to its working directory). */
const OPENCODE_TOOLS = {
  write: (tool) => ({ name: 'write', arguments: { filePath: tool.path, content: tool.content } }),
  shell: (tool) => ({ name: 'bash', arguments: { command: tool.command, description: 'Run the requested command' } }),
};

/** POST …/chat/completions. */
export function match(req, path) {
  return req.method === 'POST' && path.split('?')[0].endsWith('/chat/completions');
}

/** The latest tool result of the conversation, when the last message is a `tool` message. */
function latestToolResult(body) {
  const last = body?.messages?.at(-1);
  if (last?.role !== 'tool') return undefined;
  const text = textOf(last.content);
  return { isError: /\berror\b|exit code:? [1-9]|rejected|prevents you/i.test(text), text };
}

/**
 * The reply for one request. A request without `tools` (OpenCode's title generator, the llm runner) never gets a
 * tool call: agent scenarios answer it with a short title.
 */
function replyOf(ctx) {
  const reply = agentReplyFor(ctx, latestToolResult(ctx.body));
  if (reply.tool && !(Array.isArray(ctx.body?.tools) && ctx.body.tools.length > 0)) return { text: 'Scripted title' };
  return reply;
}

/** The assistant message of a reply: text content, or one tool call. */
function messageOf(reply, requestIndex) {
  if (!reply.tool) return { role: 'assistant', content: reply.text };
  const { name, arguments: args } = OPENCODE_TOOLS[reply.tool.kind](reply.tool);
  return { role: 'assistant', content: null, tool_calls: [{ id: `call_${requestIndex}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

/** Answers one chat completion as the scenario says. */
export async function handle(ctx) {
  const { res, body } = ctx;
  const reply = replyOf(ctx);
  if (reply.hang) return; // Never answers; the client's timeout ends it.
  if (reply.status) return sendError(res, reply.status, reply.message, reply.retryAfter);
  const model = body?.model ?? 'scripted-model';
  const message = messageOf(reply, ctx.requestIndex);
  const finish = reply.tool ? 'tool_calls' : 'stop';
  const promptText = (body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  const usage = {
    prompt_tokens: tokensOf(promptText),
    completion_tokens: tokensOf(reply.tool ? JSON.stringify(message.tool_calls) : reply.text),
    total_tokens: 0,
    prompt_tokens_details: { cached_tokens: 0 },
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const id = `chatcmpl-${ctx.requestIndex}`;
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta, finishReason = null, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }));
  if (reply.stall) {
    res.write(chunk({ content: reply.text }));
    return; // First event, then nothing: the connection stays open.
  }
  if (reply.usageStall) {
    res.write(chunk({ content: reply.text }));
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [], usage })}\n\n`);
    return; // The usage so far, then nothing: the connection stays open.
  }
  if (reply.truncate) {
    res.write(chunk({ content: reply.text.slice(0, 6) }));
    // A data line cut in the middle of its JSON, then the connection ends without [DONE].
    res.end(chunk({ content: reply.text.slice(6) }).slice(0, 40));
    return;
  }
  if (message.tool_calls) {
    const [call] = message.tool_calls;
    res.write(chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }));
  } else {
    for (let i = 0; i < reply.text.length; i += 16) res.write(chunk({ content: reply.text.slice(i, i + 16) }));
  }
  res.write(chunk({}, finish));
  if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}
