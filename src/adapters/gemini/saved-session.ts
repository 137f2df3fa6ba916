import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import { isObject, str, type Json } from '../stream-json.js';
import type { AdapterRunConfig } from '../types.js';

/** User text Gemini CLI 0.61 never resumes from (isIgnoredUserContent): commands and its own context blocks. */
const IGNORED_USER_TEXT = /^(\/|\?|<session_context>|<hook_context>)/;

/** The text of a chat message's content: a string, or its text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) ? (str(part.text) ?? '') : '')).join('');
}

/** Whether Gemini CLI would resume from a chat message (isResumableMessageRecord): a real user turn, or anything the model said or did. */
function resumable(message: Json): boolean {
  const text = contentText(message.content).trim();
  if (message.type === 'user') return text.length > 0 && !IGNORED_USER_TEXT.test(text);
  if (message.type !== 'gemini') return false;
  const listed = (value: unknown) => Array.isArray(value) && value.length > 0;
  return text.length > 0 || listed(message.toolCalls) || listed(message.thoughts);
}

/**
 * The messages of a chat file as Gemini CLI folds its JSONL records (loadConversationRecord): a record with an id adds
 * or replaces a message, `$set.messages` replaces them all, `$rewindTo` drops that message and every later one.
 * A legacy `.json` file is one object holding `messages`.
 */
export function chatMessages(text: string): Json[] {
  const whole = parseObject(text);
  if (whole && Array.isArray(whole.messages)) return whole.messages.filter(isObject);
  const messages = new Map<string, Json>();
  for (const line of text.split('\n')) {
    const record = parseObject(line);
    if (!record) continue;
    const rewindTo = str(record.$rewindTo);
    if (rewindTo !== undefined) {
      const ids = [...messages.keys()];
      const from = ids.indexOf(rewindTo);
      for (const id of from === -1 ? ids : ids.slice(from)) messages.delete(id);
    } else if (str(record.id) !== undefined) {
      messages.set(str(record.id)!, record);
    } else if (isObject(record.$set) && Array.isArray(record.$set.messages)) {
      messages.clear();
      for (const message of record.$set.messages.filter(isObject)) if (str(message.id) !== undefined) messages.set(str(message.id)!, message);
    }
  }
  return [...messages.values()];
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The chat files of `sessionId` under a Gemini config home: `.gemini/tmp/<project>/chats/session-<time>-<first 8 of the id>.json[l]`. */
async function chatFiles(home: string, sessionId: string): Promise<string[]> {
  const tmp = join(home, '.gemini', 'tmp');
  const projects = await readdir(tmp).catch(() => [] as string[]);
  const suffixes = [`-${sessionId.slice(0, 8)}.jsonl`, `-${sessionId.slice(0, 8)}.json`];
  const found: string[] = [];
  for (const project of projects) {
    const chats = join(tmp, project, 'chats');
    const names = await readdir(chats).catch(() => [] as string[]);
    found.push(...names.filter((name) => name.startsWith('session-') && suffixes.some((suffix) => name.endsWith(suffix))).map((name) => join(chats, name)));
  }
  return found;
}

/** What a chat file holds of `sessionId`: undefined when it is another session's. */
async function savedMessages(file: string, sessionId: string): Promise<Json[] | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const header = parseObject(text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))) ?? parseObject(text);
  return header?.sessionId === sessionId ? chatMessages(text) : undefined;
}

/**
 * Why Gemini CLI kept nothing of `sessionId` that `--resume` would take, or undefined when it did. Its config home is
 * GEMINI_CLI_HOME (an isolated adapter), the attempt's own home (a sandbox's HOME), else HOME.
 */
export async function geminiUnsavedSession(config: Pick<AdapterRunConfig, 'attemptDir'>, env: Record<string, string>, sessionId: string): Promise<string | undefined> {
  const homes = [...new Set([env.GEMINI_CLI_HOME, isolatedHome(config), env.HOME].filter((home): home is string => !!home))];
  let files = 0;
  for (const home of homes) {
    for (const file of await chatFiles(home, sessionId)) {
      const messages = await savedMessages(file, sessionId);
      if (!messages) continue;
      files++;
      if (messages.some(resumable)) return undefined;
    }
  }
  // After a failed request Gemini CLI takes back the turn it began, so its chat file holds nothing to resume.
  return files === 0 ? 'Gemini CLI saved no chat file for it' : 'Gemini CLI kept no message of it (it drops the turn a failed request began)';
}
