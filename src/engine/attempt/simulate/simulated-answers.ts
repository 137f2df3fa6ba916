/** The text every simulated answer starts with, so a reader of an artifact or a transcript knows no model wrote it. */
export const SIMULATED_MARK = '[simulated]';

/** A simulated step's answer when nothing shapes it: `[simulated] <step id>`. */
export function placeholderAnswer(stepId: string): string {
  return `${SIMULATED_MARK} ${stepId}`;
}

/** The text of a simulated output file that has no JSON Schema: it names the step and the file. */
export function placeholderFile(stepId: string, path: string): string {
  return `${SIMULATED_MARK} ${path} of step ${stepId}\n`;
}

/**
 * What a model asked for the step outside its attempts answers under --simulate, shaped as its caller reads it: a
 * judge's passing score (contracts/llm-judge-check.ts), a reviewer's pass verdict (contracts/agent-review), a thread
 * summary; an extract is generated from its schema instead (simulate-port.ts).
 */
export function requestAnswer(purpose: string, stepId: string): string {
  const note = `${SIMULATED_MARK} ${purpose} of step ${stepId}`;
  if (purpose === 'judge') return JSON.stringify({ score: 1, reasons: [note] });
  if (purpose === 'review') return JSON.stringify({ verdict: 'pass', issues: [], suggestions: [], confidence: 1, summary: note });
  return note;
}
