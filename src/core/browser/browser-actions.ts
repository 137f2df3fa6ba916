/** The actions of Wave's browser adapter (internal/adapter/browser.go), each one entry of a step's JSON action list. */
export const BROWSER_ACTIONS = ['navigate', 'screenshot', 'get_text', 'get_html', 'click', 'type'] as const;
export type BrowserActionName = (typeof BROWSER_ACTIONS)[number];

/** One entry of the action list, checked: only the keys its action uses. */
export interface BrowserAction {
  action: BrowserActionName;
  url?: string;
  selector?: string;
  value?: string;
  format?: 'png' | 'jpeg';
  timeout_ms?: number;
  wait_for?: string;
}

/** A problem with one entry (or the whole list when `index` is absent): where it starts in the text, and what is wrong. */
export interface ActionListProblem {
  index?: number;
  /** Offset in the text where the problem's entry starts, or where the JSON stopped parsing. */
  offset: number;
  message: string;
}

/** The keys each action takes besides `action`, `timeout_ms` and `wait_for`, and which of them it requires. */
const ACTION_KEYS: Readonly<Record<BrowserActionName, { takes: readonly string[]; requires: readonly string[] }>> = {
  navigate: { takes: ['url'], requires: ['url'] },
  screenshot: { takes: ['format'], requires: [] },
  get_text: { takes: ['selector'], requires: [] },
  get_html: { takes: ['selector'], requires: [] },
  click: { takes: ['selector'], requires: ['selector'] },
  type: { takes: ['selector', 'value'], requires: ['selector', 'value'] },
};

const COMMON_KEYS = ['action', 'timeout_ms', 'wait_for'];
const STRING_KEYS = ['url', 'selector', 'value', 'wait_for'];
const FORMATS = ['png', 'jpeg'];

/** Parses and checks an action list: the actions, or every problem found (a syntax error alone when the JSON does not parse). */
export function parseBrowserActions(text: string): { actions: BrowserAction[] } | { problems: ActionListProblem[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const at = /at position (\d+)/.exec((error as Error).message);
    return { problems: [{ offset: at ? Number(at[1]) : 0, message: `the action list is not valid JSON: ${(error as Error).message}` }] };
  }
  if (!Array.isArray(parsed)) return { problems: [{ offset: 0, message: 'the action list must be a JSON array of actions' }] };
  if (parsed.length === 0) return { problems: [{ offset: 0, message: 'the action list is empty' }] };
  const starts = entryOffsets(text);
  const problems = parsed.flatMap((entry: unknown, index) =>
    entryProblems(entry).map((message) => ({ index, offset: starts[index] ?? 0, message: `action ${index + 1}: ${message}` })),
  );
  return problems.length ? { problems } : { actions: parsed as BrowserAction[] };
}

/** What is wrong with one entry: its action, keys it lacks, keys it would ignore, values of the wrong type. */
function entryProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return ['each action must be a JSON object'];
  const record = entry as Record<string, unknown>;
  const action = record.action;
  if (typeof action !== 'string' || !(BROWSER_ACTIONS as readonly string[]).includes(action)) {
    return [`\`action\` must be one of ${BROWSER_ACTIONS.join(', ')}${action === undefined ? '' : `, not ${JSON.stringify(action)}`}`];
  }
  const keys = ACTION_KEYS[action as BrowserActionName];
  const problems: string[] = [];
  for (const key of keys.requires) if (record[key] === undefined || record[key] === '') problems.push(`${action} requires \`${key}\``);
  for (const key of Object.keys(record)) {
    if (!COMMON_KEYS.includes(key) && !keys.takes.includes(key)) problems.push(`${action} takes no \`${key}\``);
    else if (STRING_KEYS.includes(key) && typeof record[key] !== 'string') problems.push(`\`${key}\` must be a string`);
  }
  const timeout = record.timeout_ms;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0))
    problems.push('`timeout_ms` must be a whole number of milliseconds above 0');
  if (record.format !== undefined && !FORMATS.includes(record.format as string)) problems.push(`\`format\` must be ${FORMATS.join(' or ')}`);
  return problems;
}

/** Where each top-level entry of a JSON array starts in its text (strings skipped, so brackets inside them do not count). */
function entryOffsets(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let expectingEntry = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectingEntry && !/\s/.test(c) && c !== ']') {
      starts.push(i);
      expectingEntry = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') expectingEntry = ++depth === 1;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectingEntry = true;
  }
  return starts;
}

/**
 * Renders the templates of an action list inside its string values only, then writes it back as JSON: a value that holds
 * quotes or brackets (a run's input) stays one string and never changes the list. Text that is no JSON array is rendered whole.
 */
export function renderActionList(text: string, render: (template: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return render(text);
  }
  if (!Array.isArray(parsed)) return render(text);
  const rendered = parsed.map((entry: unknown) =>
    typeof entry === 'object' && entry !== null ? Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, typeof value === 'string' ? render(value) : value])) : entry,
  );
  return JSON.stringify(rendered, null, 2);
}
