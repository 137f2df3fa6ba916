// Anthropic Messages for the scripted model server (Claude Code): SSE when `stream: true`, JSON otherwise.
// Claude Code repeats a request with `stream: false` when a stream breaks, so both forms answer every scenario.
import { agentReplyFor, textOf, tokensOf } from './agent-scenarios.mjs';
import { sendError } from './scenarios.mjs';

/** Claude Code's own tool names and argument shapes. */
const CLAUDE_TOOLS = {
  write: (tool) => ({ name: 'Write', input: { file_path: tool.path, content: tool.content } }),
  shell: (tool) => ({ name: 'Bash', input: { command: tool.command, description: 'Run the requested command' } }),
};

/** POST …/v1/messages (Claude adds ?beta=true). */
export function match(req, path) {
  return req.method === 'POST' && path.split('?')[0].endsWith('/messages');
}

/** The latest tool result of the conversation, when the last message carries one. */
function latestToolResult(body) {
  const last = body?.messages?.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return undefined;
  const result = last.content.find((part) => part?.type === 'tool_result');
  return result ? { isError: result.is_error === true, text: textOf(result.content) } : undefined;
}

function contentOf(reply, requestIndex) {
  if (!reply.tool) return [{ type: 'text', text: reply.text }];
  return [{ type: 'tool_use', id: `toolu_${requestIndex}`, ...CLAUDE_TOOLS[reply.tool.kind](reply.tool) }];
}

/** Answers one Messages request as the scenario says. */
export async function handle(ctx) {
  const { res, body } = ctx;
  const reply = agentReplyFor(ctx, latestToolResult(body));
  if (reply.hang) return; // Never answers; only a client timeout or a kill ends the request.
  if (reply.status) return sendError(res, reply.status, reply.message, reply.retryAfter);
  const model = body?.model ?? 'claude-scripted';
  const id = `msg_${ctx.scenario}_${ctx.requestIndex}`;
  const content = contentOf(reply, ctx.requestIndex);
  const stopReason = reply.tool ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: tokensOf(JSON.stringify(body?.messages ?? [])),
    output_tokens: tokensOf(JSON.stringify(content)),
    cache_creation_input_tokens: 7,
    cache_read_input_tokens: 11,
  };
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  res.write(
    event('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
  );
  if (reply.stall) {
    res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    res.write(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } }));
    return; // First events, then nothing: the connection stays open.
  }
  if (reply.truncate) {
    res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    res.end(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } }).slice(0, 60));
    return; // Cut in the middle of an event's JSON, no message_stop.
  }
  content.forEach((block, index) => {
    if (block.type === 'text') {
      res.write(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (let i = 0; i < block.text.length; i += 24) res.write(event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(i, i + 24) } }));
    } else {
      res.write(event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      res.write(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }));
    }
    res.write(event('content_block_stop', { index }));
  });
  res.write(event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  res.end(event('message_stop', {}));
}
