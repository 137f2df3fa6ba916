// OpenAI Responses for the scripted model server (Codex): SSE when `stream: true` (Codex always streams), JSON otherwise.
import { agentReplyFor, tokensOf } from './agent-scenarios.mjs';
import { sendError } from './scenarios.mjs';

/** Codex's own tools: apply_patch (a freeform custom tool) writes files, exec_command runs commands. */
function toolItem(tool, index) {
  const callId = `call_${index}`;
  if (tool.kind === 'write') {
    const body = tool.content
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => `+${line}`)
      .join('\n');
    return {
      type: 'custom_tool_call',
      id: `ctc_${index}`,
      call_id: callId,
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Add File: ${tool.path}\n${body}\n*** End Patch\n`,
      status: 'completed',
    };
  }
  return { type: 'function_call', id: `fc_${index}`, call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd: tool.command }), status: 'completed' };
}

/** POST …/responses. */
export function match(req, path) {
  return req.method === 'POST' && path.split('?')[0].endsWith('/responses');
}

/** The latest tool output of the conversation, when the last input item carries one. */
function latestToolResult(body) {
  const last = Array.isArray(body?.input) ? body.input.at(-1) : undefined;
  if (!last || !String(last.type ?? '').endsWith('_call_output')) return undefined;
  const text = typeof last.output === 'string' ? last.output : JSON.stringify(last.output ?? '');
  const failed = /exit code: [1-9]|Process exited with code [1-9]|"exit_code":\s*[1-9]/i.test(text);
  return { isError: failed, text };
}

/** Answers one Responses request as the scenario says. */
export async function handle(ctx) {
  const { res, body } = ctx;
  const reply = agentReplyFor(ctx, latestToolResult(body));
  if (reply.hang) return; // Never answers.
  if (reply.status) return sendError(res, reply.status, reply.message, reply.retryAfter);
  const id = `resp_${ctx.scenario}_${ctx.requestIndex}`;
  const item = reply.tool
    ? toolItem(reply.tool, ctx.requestIndex)
    : { type: 'message', id: `msg_${ctx.requestIndex}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
  const input = tokensOf(JSON.stringify(body?.input ?? ''));
  const usage = {
    input_tokens: input + 5,
    input_tokens_details: { cached_tokens: 5 },
    output_tokens: tokensOf(JSON.stringify(item)),
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 0,
  };
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  const response = { id, object: 'response', status: 'completed', model: body?.model ?? 'scripted', output: [item], usage };
  if (!body?.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  res.write(event('response.created', { response: { ...response, status: 'in_progress', output: [] } }));
  if (reply.stall) return; // First event, then nothing.
  if (reply.truncate) {
    res.end(event('response.output_item.added', { output_index: 0, item }).slice(0, 50));
    return; // Cut in the middle of an event, no response.completed.
  }
  const started = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item;
  res.write(event('response.output_item.added', { output_index: 0, item: started }));
  if (item.type === 'message') res.write(event('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: reply.text }));
  res.write(event('response.output_item.done', { output_index: 0, item }));
  res.end(event('response.completed', { response }));
}
