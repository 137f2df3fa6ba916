import type { RunRecord, StepRecord } from '../state/record/run-record.js';
import { stepOutputFile } from '../state/step-output-file.js';
import type { Paint } from './color.js';

/** Where the whole of a step's result is: the step's output.txt for JSON fields of a completed step, else its log. */
function restOfResult(runId: string, step: StepRecord, runDir: string, showPath: (path: string) => string): string {
  if (step.result?.kind === 'fields' && step.status === 'completed') return showPath(stepOutputFile(runDir, step.id));
  return `wave logs ${runId} --step ${step.id}`;
}

/** What a cut result leaves out (`12 more lines`), or '' when nothing was cut. */
function leftOut(step: StepRecord): string {
  const result = step.result!;
  if (!result.cut) return '';
  const left = result.total - result.lines.length;
  const unit = result.kind === 'fields' ? 'field' : 'line';
  return left > 0 ? `${left} ${result.kind === 'output' ? 'earlier' : 'more'} ${unit}${left === 1 ? '' : 's'}` : 'the rest';
}

/** A step's result under its summary line: the lines, and where the rest is when they were cut (none without a result). */
export function resultSummaryLines(record: RunRecord, step: StepRecord, runDir: string, paint: Paint, showPath: (path: string) => string): string[] {
  if (!step.result?.lines.length) return [];
  const lines = step.result.lines.map((line) => `      ${paint('gray', '│')} ${line}`);
  const left = leftOut(step);
  if (!left) return lines;
  const pointer = `      ${paint('gray', `… ${left}:`)} ${restOfResult(record.id, step, runDir, showPath)}`;
  // A command's last lines are shown: what was left out came before them.
  return step.result.kind === 'output' ? [pointer, ...lines] : [...lines, pointer];
}

/** The job summary's section of step results, one code block per step with a result ('' when no step has one). */
export function resultsMarkdown(record: RunRecord, runDir: string): string {
  const blocks = Object.values(record.steps).flatMap((step) => {
    if (!step.result?.lines.length) return [];
    const left = leftOut(step);
    // A fence longer than any backtick run inside keeps the block closed where it should be.
    const fence = '`'.repeat(Math.max(3, ...step.result.lines.map((line) => (line.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length + 1), 0))));
    return [`**\`${step.id}\`**`, '', fence, ...step.result.lines, fence, ...(left ? ['', `${left}: \`${restOfResult(record.id, step, runDir, (path) => path)}\``] : []), ''];
  });
  return blocks.length ? ['### Results', '', ...blocks].join('\n').trimEnd() : '';
}
