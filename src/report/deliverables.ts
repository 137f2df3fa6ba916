import { isFileOutcome, type Outcome, type RunOutput } from '../core/deliverables.js';
import type { RunRecord, StepRecord } from '../state/record/run-record.js';
import type { Paint } from './color.js';
import { oneLine } from './describe.js';
import { safeLine } from '../core/terminal-safe.js';

/** An output's value is shown on one line, cut here (run.json and `wave status --json` hold it whole). */
const SHOWN_VALUE_CHARS = 120;

/** An output's value as shown: its lines joined into one, cut to SHOWN_VALUE_CHARS. */
const shownValue = (value: string) => oneLine(value.replace(/\s*\n\s*/g, ' '), SHOWN_VALUE_CHARS);

/** An outcome in a line: `Pull Request: https://…` (a file as the caller shows paths). */
export function describeOutcome(outcome: Outcome, showPath: (path: string) => string = (p) => p): string {
  const value = isFileOutcome(outcome.type) ? showPath(outcome.value) : outcome.value;
  return `${outcome.label}: ${safeLine(value)}`;
}

/** A named output in a line: `pr = https://…`, or where its artifact lies when it has no value. */
export function describeOutput(name: string, output: RunOutput, showPath: (path: string) => string = (p) => p): string {
  const from = `${output.step}/${output.artifact}${output.field ? `.${output.field}` : ''}${output.type !== 'string' ? `, ${output.type}` : ''}`;
  if (output.value === undefined) return `${name} (${from}) → ${showPath(output.path)}`;
  return `${name} (${from}) = ${shownValue(output.value)}`;
}

/** A step's outcomes and their warnings as the summary lists them under the step, indented. */
export function outcomeSummaryLines(step: StepRecord, paint: Paint, showPath: (path: string) => string): string[] {
  return [
    ...(step.outcomes ?? []).map((o) => `      ${paint('cyan', '↗')} ${describeOutcome(o, showPath)}`),
    ...(step.outcomeWarnings ?? []).map((w) => `      ${paint('yellow', 'warning:')} ${w}`),
  ];
}

/** The run's named outputs and their warnings, as a block of the summary (none when the pipeline declares none). */
export function outputSummaryLines(record: RunRecord, paint: Paint, showPath: (path: string) => string): string[] {
  const outputs = Object.entries(record.outputs ?? {});
  const warnings = record.outputWarnings ?? [];
  if (outputs.length === 0 && warnings.length === 0) return [];
  return ['  outputs:', ...outputs.map(([name, output]) => `    ${describeOutput(name, output, showPath)}`), ...warnings.map((w) => `    ${paint('yellow', 'warning:')} ${w}`), ''];
}

/** The job summary's section of outcomes and outputs, a Markdown list ('' when the run has neither). */
export function deliverablesMarkdown(record: RunRecord): string {
  const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
  const items = [
    ...Object.values(record.steps).flatMap((s) => [
      ...(s.outcomes ?? []).map((o) => `- ${code(s.id)} ${o.label}: ${isFileOutcome(o.type) ? code(o.value) : o.value}`),
      ...(s.outcomeWarnings ?? []).map((w) => `- ${code(s.id)} warning: ${w}`),
    ]),
    ...Object.entries(record.outputs ?? {}).map(([name, o]) => `- output ${code(name)}: ${o.value === undefined ? code(o.path) : code(shownValue(o.value))}`),
    ...(record.outputWarnings ?? []).map((w) => `- warning: ${w}`),
  ];
  return items.length ? ['### Outcomes and outputs', '', ...items].join('\n') : '';
}
