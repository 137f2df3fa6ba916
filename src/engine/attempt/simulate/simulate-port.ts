import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterResult } from '../../../adapters/types.js';
import { failureOfError, type Failure } from '../../../core/errors/failure.js';
import { NO_TOKENS } from '../../../core/models/tokens.js';
import type { SimulatedAnswer } from '../../../events.js';
import { isAttemptStep, type AttemptStep, type Plan } from '../../../plan/plan-types.js';
import type { EventBody } from '../../run/context.js';
import type { AttemptPort, AttemptRequest } from '../attempt-port.js';
import { reasonOf } from '../attempt.js';
import { placeholderAnswer, requestAnswer } from './simulated-answers.js';
import { ANSWER_FIXTURE, readFixture } from './simulate-fixtures.js';
import { unsatisfiable, writeSimulatedOutputs, type SimulatedFiles } from './simulated-outputs.js';
import { sampleOfSchema } from './schema-sample.js';

/** What `wave run --simulate` serves attempts with. */
export interface SimulateOptions {
  /** The run's plan: each attempt's step, for the files it declares and their contracts. */
  plan: Plan;
  /** `--simulate-outputs`: the folder of fixtures by step id. */
  fixtures?: string;
  /** Where command steps go: they run for real. */
  live: AttemptPort;
  /** Records an event in the run (the `simulated` event of each attempt). */
  emit: (body: EventBody) => void;
}

/** A simulated answer: its text and where it came from, or why there is none. */
type Answer = { text: string; from: SimulatedAnswer } | { failure: Failure };

const NO_FILES: SimulatedFiles = { generated: [], placeholders: [], fixtures: [] };

/**
 * The simulate port: every agent and model attempt is answered here, with no binary, server, key or network — a
 * step's declared files and answer generated from their JSON Schemas (or fixtures, or placeholder text), a judge's,
 * reviewer's or summary's answer shaped as its caller reads it; tokens and cost zero, no session. Command steps go
 * to `live`. Each simulated attempt is recorded by a `simulated` event.
 */
export function simulatePort(options: SimulateOptions): AttemptPort {
  return {
    async run(request) {
      if (request.config.execType === 'command') return options.live.run(request);
      const started = Date.now();
      if (request.signal.aborted) return simulatedResult({ failure: reasonOf(request.signal) }, started);
      const step = options.plan.steps.find((s): s is AttemptStep => s.id === request.config.stepId && isAttemptStep(s));
      const { files, answer } = await simulate(request, step, options.fixtures);
      const { stepId, attempt } = request.config;
      options.emit({ type: 'simulated', stepId, attempt, purpose: request.purpose, answer: 'from' in answer ? answer.from : 'none', ...files });
      if ('text' in answer) request.onEvent({ kind: 'result', ok: true, text: answer.text, tokens: { ...NO_TOKENS }, costUsd: 0 });
      return simulatedResult(answer, started);
    },
  };
}

/** A simulated attempt's files and answer: a step's own attempt writes its declared files first, and its stdout when an artifact reads it. */
async function simulate(request: AttemptRequest, step: AttemptStep | undefined, fixtures: string | undefined): Promise<{ files: SimulatedFiles; answer: Answer }> {
  try {
    if (request.purpose !== 'step' || !step) return { files: NO_FILES, answer: await answerOf(request, step, fixtures) };
    const files = await writeSimulatedOutputs({ step, workspace: request.config.workspace, fixtures });
    if ('failure' in files) return { files: NO_FILES, answer: files };
    const answer = await answerOf(request, step, fixtures);
    // A `source: stdout` artifact is the attempt's stdout file: the answer is what the simulated agent printed.
    if ('text' in answer && step.outputArtifacts.some((a) => a.source === 'stdout')) await writeFile(join(request.config.attemptDir, 'stdout'), answer.text);
    return { files, answer };
  } catch (error) {
    return { files: NO_FILES, answer: { failure: failureOfError(error, 'io_error') } };
  }
}

/** The attempt's answer: a step's fixture, else generated from the schema its output must match, else a placeholder; a request's as its caller reads it. */
async function answerOf(request: AttemptRequest, step: AttemptStep | undefined, fixtures: string | undefined): Promise<Answer> {
  const stepId = request.config.stepId;
  if (request.purpose !== 'step') {
    if (request.purpose !== 'extract' || !step?.extract) return { text: requestAnswer(request.purpose, stepId), from: 'placeholder' };
    return fromSchema(stepId, step.extract.schema, 'extract');
  }
  const fixture = fixtures !== undefined ? await readFixture(fixtures, stepId, ANSWER_FIXTURE) : undefined;
  if (fixture && 'failure' in fixture) return fixture;
  if (fixture) return { text: fixture.bytes.toString('utf8'), from: 'fixture' };
  const schema = step?.contracts.find((c) => c.type === 'json_schema' && c.target.kind === 'output')?.schemaObject ?? step?.extract?.schema;
  return schema ? fromSchema(stepId, schema, 'answer') : { text: placeholderAnswer(stepId), from: 'placeholder' };
}

function fromSchema(stepId: string, schema: Record<string, unknown>, what: 'answer' | 'extract'): Answer {
  const sample = sampleOfSchema(schema, `${stepId}\0${what}`);
  if (!sample.ok) return { failure: unsatisfiable(stepId, what === 'answer' ? 'an answer' : 'an extract', sample.errors) };
  return { text: JSON.stringify(sample.value, null, 2), from: 'schema' };
}

/** What the adapter would return: the answer as the result text, no tokens, no cost, no session. */
function simulatedResult(answer: Answer, started: number): AdapterResult {
  const text = 'text' in answer ? answer.text : '';
  return {
    ok: 'text' in answer,
    exitCode: 'text' in answer ? 0 : null,
    signal: null,
    text,
    tokens: { ...NO_TOKENS },
    costUsd: 0,
    ...('failure' in answer ? { failure: answer.failure } : {}),
    skippedLines: 0,
    outputTail: text.slice(-2000),
    durationMs: Date.now() - started,
  };
}
