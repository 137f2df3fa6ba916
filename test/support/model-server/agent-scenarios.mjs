// Agent scenarios shared by the Anthropic, Chat Completions, Responses and Gemini handlers: the model asks the CLI to run one of
// its own tools (write a file, run a shell command), then answers once the tool's result comes back.
import { replyFor } from './scenarios.mjs';
import { authoredContent } from './authored-content.mjs';
import { waveStepReply } from './wave-step-scenario.mjs';

/** The command of the `shellfail` scenario: prints to stderr and exits 3. */
export const FAILING_COMMAND = 'echo oops >&2; exit 3';

const decode = (param) => Buffer.from(param, 'base64url').toString('utf8');

/** Encodes a command or file content for a path parameter of `shell/<param>` or `write/<file>/<param>`. */
export function encodeParam(text) {
  return Buffer.from(text).toString('base64url');
}

/**
 * The reply for an agent request. `toolResult` is undefined before any tool ran, else { isError, text } of the
 * latest tool result in the conversation. Tool scenarios:
 *   write/<file>[/<content base64url>]  a write-file tool call (<file> URL-encoded), then "Wrote <file>."
 *   copy/<file>                         the same, writing the text the task quotes between << and >>
 *   shell/<command base64url>           a shell tool call, then an answer quoting its output
 *   shellfail                           a shell command that exits 3, then an answer saying so
 *   author                              writes the first file the task names, of the kind its extension asks for
 *   rounds/<file>/<contents base64url>  writes the n-th text of a JSON list (the last once past it), n counting the
 *                                       writes of this scenario and list that went through before: one a run of the CLI
 *   wavestep                            does what a Wave step asks so that its contracts pass (wave-step-scenario.mjs)
 * Every other scenario is the shared one (text, seq, http401/429/500, hang, stall, truncated).
 * Returns { tool: { kind: 'write', path, content } | { kind: 'shell', command } } or a replyFor() reply.
 */
export function agentReplyFor(ctx, toolResult) {
  const [first, second] = ctx.params;
  switch (ctx.scenario) {
    case 'write':
    case 'copy': {
      // A path with folders comes URL-encoded (`out%2Fa.txt`): a scenario parameter is one path segment.
      const path = first ? decodeURIComponent(first) : 'out.txt';
      const content = ctx.scenario === 'copy' ? quotedInTask(ctx.body) : second ? decode(second) : `written by the scripted model\n`;
      if (!toolResult) return { tool: { kind: 'write', path, content } };
      return { text: toolResult.isError ? `Could not write ${path}: ${toolResult.text.slice(0, 200)}` : `Wrote ${path}.` };
    }
    case 'shell':
    case 'shellfail': {
      const command = ctx.scenario === 'shellfail' ? FAILING_COMMAND : decode(first ?? encodeParam('echo hi'));
      if (!toolResult) return { tool: { kind: 'shell', command } };
      return { text: `${toolResult.isError ? 'The command failed' : 'The command ran'}: ${toolResult.text.trim().slice(0, 200)}` };
    }
    case 'author': {
      // Writes the file the task names (its first backquoted file name), with content of the kind its extension asks for.
      const task = JSON.stringify(ctx.body?.messages ?? ctx.body?.contents ?? ctx.body?.input ?? '');
      const path = /`(?:\.\/)?([\w.-]+\.(?:txt|json|md|go))`/.exec(task)?.[1];
      if (!path) return { text: 'No file was asked for.' };
      if (!toolResult) return { tool: { kind: 'write', path, content: authoredContent(path) } };
      return { text: toolResult.isError ? `Could not write ${path}: ${toolResult.text.slice(0, 200)}` : `Wrote ${path}.` };
    }
    case 'rounds':
      return roundsReply(ctx, toolResult);
    case 'wavestep':
      return waveStepReply(ctx, toolResult);
    default:
      return replyFor(ctx);
  }
}

/** `rounds`: the write of the text whose turn it is; a write that went through moves the next conversation to the next text. */
function roundsReply(ctx, toolResult) {
  const [file, list] = ctx.params;
  const path = decodeURIComponent(file ?? 'out.txt');
  const contents = JSON.parse(decode(list ?? encodeParam('[""]')));
  // Counted by writes done, not by requests: a CLI's title or retried requests do not move the round on.
  const key = `rounds/${ctx.params.join('/')}`;
  const done = ctx.tallies?.get(key) ?? 0;
  if (!toolResult) return { tool: { kind: 'write', path, content: contents[Math.min(done, contents.length - 1)] } };
  if (toolResult.isError) return { text: `Could not write ${path}: ${toolResult.text.slice(0, 200)}` };
  ctx.tallies?.set(key, done + 1);
  return { text: `Wrote ${path}.` };
}

/** The first text the task's messages quote between << and >> (so a child's answer follows its input), else empty. */
function quotedInTask(body) {
  const messages = body?.messages ?? body?.contents ?? body?.input ?? [];
  const quoted = /<<(.*?)>>/s.exec(JSON.stringify(messages))?.[1];
  // The text was cut from JSON: its escapes are undone by reading it as a JSON string.
  return quoted === undefined ? '' : JSON.parse(`"${quoted}"`);
}

/** Rough token count, enough for usage numbers that move with the text. */
export const tokensOf = (text) => Math.max(1, Math.ceil(String(text ?? '').length / 4));

/** The text of a message's content: a string, or the text parts of a block list. */
export function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}
