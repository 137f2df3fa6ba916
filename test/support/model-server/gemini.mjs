// Gemini generateContent / streamGenerateContent?alt=sse for the scripted model server (Gemini CLI).
import { agentReplyFor, tokensOf } from './agent-scenarios.mjs';
import { sendError } from './scenarios.mjs';

/** Gemini CLI's own tool names and argument shapes. */
const GEMINI_TOOLS = {
  write: (tool) => ({ name: 'write_file', args: { file_path: tool.path, content: tool.content } }),
  shell: (tool) => ({ name: 'run_shell_command', args: { command: tool.command, description: 'Run the requested command' } }),
};

/** POST …/models/<model>:generateContent or :streamGenerateContent. */
export function match(req, path) {
  return req.method === 'POST' && /:(stream)?generateContent/i.test(path);
}

/** The latest function response of the conversation, when the last content carries one. */
function latestToolResult(body) {
  const last = body?.contents?.at(-1);
  const response = last?.parts?.find((part) => part?.functionResponse)?.functionResponse;
  if (!response) return undefined;
  const text = JSON.stringify(response.response ?? {});
  return { isError: /"error"|Exit Code: [1-9]|exit code: [1-9]/i.test(text), text };
}

/** Answers one Gemini request as the scenario says. */
export async function handle(ctx) {
  const { req, res, body } = ctx;
  const reply = agentReplyFor(ctx, latestToolResult(body));
  if (reply.hang) return; // Never answers.
  if (reply.status) return sendError(res, reply.status, reply.message, reply.retryAfter);
  const parts = reply.tool ? [{ functionCall: GEMINI_TOOLS[reply.tool.kind](reply.tool) }] : [{ text: reply.text }];
  const usageMetadata = {
    promptTokenCount: tokensOf(JSON.stringify(body?.contents ?? [])) + 4,
    candidatesTokenCount: tokensOf(JSON.stringify(parts)),
    cachedContentTokenCount: 4,
    totalTokenCount: 0,
  };
  usageMetadata.totalTokenCount = usageMetadata.promptTokenCount + usageMetadata.candidatesTokenCount;
  const chunk = (chunkParts, finishReason) => ({
    candidates: [{ content: { role: 'model', parts: chunkParts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata,
    modelVersion: 'scripted',
  });
  if (!/:streamGenerateContent/i.test(req.url ?? '')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk(parts, 'STOP')));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const data = (value) => `data: ${JSON.stringify(value)}\r\n\r\n`;
  if (reply.stall) {
    res.write(data(chunk([{ text: reply.text }])));
    return; // First event, then nothing.
  }
  if (reply.truncate) {
    res.end(data(chunk([{ text: reply.text }])).slice(0, 50));
    return; // Cut in the middle of its JSON.
  }
  res.end(data(chunk(parts, 'STOP')));
}
