import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineOutputDef } from '../../config/schema/deliverable-schema.js';
import type { RunOutput } from '../../core/deliverables.js';
import { JsonPathError, jsonPathValues, parseJsonPath } from '../../core/json-path.js';
import type { Plan } from '../../plan/plan-types.js';
import type { RunRecord, StepRecord } from '../../state/record/run-record.js';
import { emit, type RunContext } from './context.js';

/** An output's value is kept in run.json up to this size; a larger one is read from its file (GitHub takes 1 MiB of outputs in all). */
export const MAX_OUTPUT_VALUE_BYTES = 64 * 1024;
/** An artifact a `field` is read from larger than this is not parsed. */
const MAX_FIELD_SOURCE_BYTES = 8 * 1024 * 1024;

/** Why an output is absent, or has no value: one warning line of the run. */
class OutputWarning extends Error {}

/**
 * Wave's recordPipelineOutputs (internal/pipeline/sequence.go), when the run ends: each of `pipeline_outputs` is its
 * step's stored artifact (already redacted), whole or the value at its `field` (Wave's JSON path, with a leading dot
 * added). One whose artifact was not saved, or whose field cannot be read, is absent and a warning says why.
 * Recorded as run.json's `outputs` and published as `run_outputs`.
 */
export function resolveRunOutputs(context: RunContext): void {
  const resolved = collectRunOutputs(context.plan, context.store.record, context.store.dir);
  if (!resolved) return;
  const { outputs, warnings } = resolved;
  emit(context, { type: 'run_outputs', outputs, warnings });
}

/** The run's outputs and warnings from its record and folder (also for `wave assemble`); undefined when the pipeline declares none. */
export function collectRunOutputs(plan: Pick<Plan, 'outputs'>, record: RunRecord, runDir: string): { outputs: Record<string, RunOutput>; warnings: string[] } | undefined {
  const defs = Object.entries(plan.outputs ?? {});
  if (defs.length === 0) return undefined;
  const outputs: Record<string, RunOutput> = {};
  const warnings: string[] = [];
  for (const [name, def] of defs) {
    try {
      const { output, note } = resolveOutput(record, runDir, def);
      outputs[name] = output;
      if (note) warnings.push(`output \`${name}\`: ${note}`);
    } catch (error) {
      if (!(error instanceof OutputWarning)) throw error;
      warnings.push(`output \`${name}\`: ${error.message}`);
    }
  }
  return { outputs, warnings };
}

function resolveOutput(record: RunRecord, runDir: string, def: PipelineOutputDef): { output: RunOutput; note?: string } {
  const step = record.steps[def.step];
  const saved = step?.artifacts.find((a) => a.name === def.artifact);
  if (!step || !saved) throw new OutputWarning(notSaved(def, step));
  const output: RunOutput = { step: def.step, artifact: def.artifact, ...(def.field !== undefined ? { field: def.field } : {}), type: def.type ?? 'string', path: saved.path };
  const file = join(runDir, saved.path);
  let bytes: Buffer;
  try {
    if (statSync(file).isDirectory()) {
      if (def.field !== undefined) throw new OutputWarning(`artifact \`${def.artifact}\` is a folder: it has no field \`${def.field}\``);
      return { output, note: `artifact \`${def.artifact}\` is a folder: the output is its path, ${saved.path}` };
    }
    if (def.field === undefined && saved.bytes > MAX_OUTPUT_VALUE_BYTES) return { output, note: tooLarge(saved.bytes, saved.path) };
    if (saved.bytes > MAX_FIELD_SOURCE_BYTES)
      throw new OutputWarning(`artifact \`${def.artifact}\` is larger than ${MAX_FIELD_SOURCE_BYTES / 1024 / 1024} MiB: its field is not read`);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof OutputWarning) throw error;
    throw new OutputWarning(`cannot read ${saved.path}: ${(error as Error).message}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (def.field !== undefined) throw new OutputWarning(`artifact \`${def.artifact}\` is not text, so it has no field \`${def.field}\``);
    return { output, note: `artifact \`${def.artifact}\` is not text: the output is its path, ${saved.path}` };
  }
  const value = def.field === undefined ? text : fieldValue(text, def);
  if (Buffer.byteLength(value) > MAX_OUTPUT_VALUE_BYTES) return { output, note: tooLarge(Buffer.byteLength(value), saved.path) };
  return { output: { ...output, value } };
}

/** Wave's ExtractJSONPath(data, "." + field). */
function fieldValue(text: string, def: PipelineOutputDef): string {
  const field = def.field!;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new OutputWarning(`artifact \`${def.artifact}\` is not JSON, so it has no field \`${field}\` (${(error as Error).message})`);
  }
  try {
    return jsonPathValues(data, parseJsonPath(field.startsWith('.') ? field : `.${field}`))[0]!;
  } catch (error) {
    if (!(error instanceof JsonPathError)) throw error;
    throw new OutputWarning(`field \`${field}\` of artifact \`${def.artifact}\`: ${error.message}`);
  }
}

function notSaved(def: PipelineOutputDef, step: StepRecord | undefined): string {
  const status = step?.status ?? 'pending';
  if (status === 'completed') return `step \`${def.step}\` completed without saving artifact \`${def.artifact}\` (it is not required)`;
  const what = {
    pending: 'did not run',
    running: 'did not finish',
    retrying: 'did not finish',
    reworking: 'did not finish',
    failed: 'failed',
    skipped: 'was skipped',
    cancelled: 'was cancelled',
    rejected: 'was rejected',
  }[status];
  return `step \`${def.step}\` ${what}, so its artifact \`${def.artifact}\` was not saved`;
}

function tooLarge(bytes: number, path: string): string {
  return `its value is ${Math.ceil(bytes / 1024)} KiB, more than ${MAX_OUTPUT_VALUE_BYTES / 1024} KiB: it is left out of run.json, read it from ${path}`;
}
