// The `wavestep` scenario: an agent that does what a Wave step's prompt asks in a way its contracts pass. It writes
// each file the prompt's requirements block names (a json_schema file gets a sample valid against the schema shown
// there) and each path of an "## Output Artifacts" list, one write per turn, then answers; a reviewer's prompt gets a
// passing verdict and a judge's prompt a full score.
import { authoredContent } from './authored-content.mjs';
import { sampleOf } from './schema-sample.mjs';

/** The heading Wave puts above the contracts a step's output is checked against (src/contracts/requirements.ts). */
const REQUIREMENTS_HEADING = '## Requirements your output is checked against';
/** The heading of Wave's list of a step's output artifact paths. */
const OUTPUT_ARTIFACTS_HEADING = '## Output Artifacts';

/** The verdict an agent_review reviewer answers with. */
export const PASSING_REVIEW = { verdict: 'pass', issues: [], suggestions: [], confidence: 0.9, summary: 'The work meets the criteria.' };
/** The answer an llm_judge judge gives. */
export const FULL_SCORE = { score: 1, reasons: ['Every criterion is met.'] };

/** A user message's text: a string, or its text parts joined (tool results left out). */
function userText(message) {
  if (typeof message?.content === 'string') return message.content;
  if (Array.isArray(message?.content)) return message.content.map((part) => (part?.type === 'text' ? part.text : '')).join('\n');
  if (Array.isArray(message?.parts)) return message.parts.map((part) => part?.text ?? '').join('\n');
  return '';
}

const isToolResult = (message) =>
  message?.role === 'tool' ||
  (Array.isArray(message?.content) && message.content.some((part) => part?.type === 'tool_result')) ||
  (Array.isArray(message?.parts) && message.parts.some((part) => part?.functionResponse));

/** The conversation's messages, whichever protocol carried them. */
const messagesOf = (body) => body?.messages ?? body?.contents ?? (Array.isArray(body?.input) ? body.input : []);

/** The task of the current turn (the last user message that is no tool result) and how many tool results followed it. */
export function currentTurn(body) {
  const messages = messagesOf(body);
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user' && !isToolResult(messages[i])) {
      start = i;
      break;
    }
  }
  const task = start === -1 ? (typeof body?.input === 'string' ? body.input : '') : userText(messages[start]);
  const toolResults = messages.slice(start + 1).filter(isToolResult).length;
  return { task, toolResults };
}

/** The files a step's prompt asks for, in order, each with the content that passes its check; and a final answer when one is checked. */
export function requestedFiles(task) {
  const files = new Map();
  let answer;
  const requirements = task.lastIndexOf(REQUIREMENTS_HEADING);
  if (requirements !== -1) {
    const block = task.slice(requirements);
    const schemaFile = /^- (?:Write `([^`]+)` containing|(Your final answer must be)) JSON only, valid against this JSON Schema:\n```json\n([\s\S]*?)\n```/gm;
    for (const [, path, final, schemaText] of block.matchAll(schemaFile)) {
      const content = `${JSON.stringify(sampleOf(JSON.parse(schemaText)), null, 2)}\n`;
      if (final) answer = content;
      else files.set(path, content);
    }
    for (const [, path] of block.matchAll(/^- The file `([^`]+)` must exist and must not be empty\.$/gm)) if (!files.has(path)) files.set(path, authoredContent(path));
  }
  const artifacts = task.indexOf(OUTPUT_ARTIFACTS_HEADING);
  if (artifacts !== -1) {
    const list = task.slice(artifacts + OUTPUT_ARTIFACTS_HEADING.length).split(/\n#{1,3} /)[0];
    for (const [, path] of list.matchAll(/^- `([^`]+)`/gm)) if (!files.has(path)) files.set(path, authoredContent(path));
  }
  return { files: [...files].map(([path, content]) => ({ path, content })), answer };
}

/** The reply of the `wavestep` scenario: a write tool call, or a text answer (see agentReplyFor in agent-scenarios.mjs). */
export function waveStepReply(ctx, toolResult) {
  const { task, toolResults } = currentTurn(ctx.body);
  if (task.includes('## Review Criteria') && task.includes('## Required Output Format')) return { text: JSON.stringify(PASSING_REVIEW) };
  if (task.includes('Answer with JSON only: {"score"')) return { text: JSON.stringify(FULL_SCORE) };
  const { files, answer } = requestedFiles(task);
  if (toolResult?.isError) return { text: `Could not write ${files[toolResults - 1]?.path ?? 'the file'}: ${toolResult.text.slice(0, 200)}` };
  const next = files[toolResults];
  if (next) return { tool: { kind: 'write', path: next.path, content: next.content } };
  if (answer) return { text: answer };
  return { text: files.length ? `Wrote ${files.map((f) => f.path).join(', ')}.` : 'Done.' };
}
