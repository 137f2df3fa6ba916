/** A reviewer's verdict on the step's work. */
export type ReviewVerdict = 'pass' | 'fail' | 'warn';

/** One problem the reviewer found. */
export interface ReviewIssue {
  severity: string;
  description: string;
}

/** What a reviewer answers, as Wave's ReviewFeedback. */
export interface ReviewFeedback {
  verdict: ReviewVerdict;
  issues: ReviewIssue[];
  suggestions: string[];
  confidence: number;
  summary: string;
}

/** The reviewer's answer read: its feedback, or why there is none. */
export type ParsedReview = { ok: true; feedback: ReviewFeedback } | { ok: false; error: string };

/** The largest answer read, as Wave's 1 MiB. */
const ANSWER_LIMIT = 1 << 20;
const VERDICTS: readonly string[] = ['pass', 'fail', 'warn'];

type Candidate = Omit<ReviewFeedback, 'verdict'> & { verdict: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optional = <T>(value: unknown, is: (v: unknown) => v is T, fallback: T): T | undefined => (value === undefined || value === null ? fallback : is(value) ? value : undefined);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isIssues = (v: unknown): v is ReviewIssue[] =>
  Array.isArray(v) && v.every((i) => isRecord(i) && optional(i.severity, isString, '') !== undefined && optional(i.description, isString, '') !== undefined);

/** A JSON value as feedback when it is an object carrying a verdict and every field has its type (Go's Unmarshal would refuse it otherwise). */
function asFeedback(value: unknown): Candidate | undefined {
  if (!isRecord(value) || typeof value.verdict !== 'string' || value.verdict === '') return undefined;
  const issues = optional(value.issues, isIssues, []);
  const suggestions = optional(value.suggestions, isStrings, []);
  const confidence = optional(value.confidence, isNumber, 0);
  const summary = optional(value.summary, isString, '');
  if (!issues || !suggestions || confidence === undefined || summary === undefined) return undefined;
  const listed = issues.map((i) => ({ severity: i.severity ?? '', description: i.description ?? '' }));
  return { verdict: value.verdict, issues: listed, suggestions, confidence, summary };
}

/** `text` parsed as JSON feedback, or undefined. */
function parseFeedback(text: string): Candidate | undefined {
  if (!text) return undefined;
  try {
    return asFeedback(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The JSON inside an answer as Wave finds it: without a markdown fence, from the first `{` to the last `}`. */
export function firstJsonBlock(text: string): string {
  let body = text.trim();
  if (body.startsWith('```')) {
    const newline = body.indexOf('\n');
    if (newline >= 0) body = body.slice(newline + 1);
    const fence = body.lastIndexOf('```');
    if (fence >= 0) body = body.slice(0, fence);
  }
  body = body.trim();
  const first = body.indexOf('{');
  const last = body.lastIndexOf('}');
  return (first >= 0 && last > first ? body.slice(first, last + 1) : body).trim();
}

/** The last line of an NDJSON stream carrying a verdict, itself or in a stream event's `result` string. */
function lastVerdictLine(text: string): Candidate | undefined {
  let last: Candidate | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('{')) continue;
    let envelope: unknown;
    try {
      envelope = JSON.parse(line);
    } catch {
      continue;
    }
    const inner = isRecord(envelope) && typeof envelope.result === 'string' ? parseFeedback(firstJsonBlock(envelope.result)) : undefined;
    last = inner ?? asFeedback(envelope) ?? last;
  }
  return last;
}

/** Reads a reviewer's answer as Wave does: the whole text as JSON, then its first JSON block, then the last NDJSON line with a verdict. */
export function parseReview(answer: string): ParsedReview {
  const text = answer.slice(0, ANSWER_LIMIT);
  if (!text.trim()) return { ok: false, error: 'the reviewer produced no output' };
  const found = parseFeedback(text) ?? parseFeedback(firstJsonBlock(text)) ?? lastVerdictLine(text);
  if (!found) return { ok: false, error: `no JSON object with a "verdict" was found in the reviewer's answer: ${text.slice(0, 300)}` };
  if (!VERDICTS.includes(found.verdict)) return { ok: false, error: `the reviewer's verdict "${found.verdict}" is not pass, fail or warn` };
  if (found.confidence < 0 || found.confidence > 1) return { ok: false, error: `the reviewer's confidence ${found.confidence} is outside 0 to 1` };
  return { ok: true, feedback: { ...found, verdict: found.verdict as ReviewVerdict } };
}
