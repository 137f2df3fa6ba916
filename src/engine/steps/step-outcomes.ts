import { posix, resolve } from 'node:path';
import type { OutcomeDef } from '../../config/schema/deliverable-schema.js';
import { isFileOutcome, type Outcome } from '../../core/deliverables.js';
import { JsonPathError, jsonPathValues, parseJsonPath, takesEachItem } from '../../core/json-path.js';
import { WaveError } from '../../core/errors/errors.js';
import type { AttemptStep } from '../../plan/plan-types.js';
import { openContained } from '../artifacts/artifact-copy.js';
import { artifactRedactor } from '../artifacts/artifact-redaction.js';
import { emit, type RunContext } from '../run/context.js';

/** A file an outcome is read from larger than this is not read (outcome files are small JSON documents). */
const MAX_OUTCOME_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Wave's processStepOutcomes (internal/pipeline/executor_artifacts.go), once the step succeeded: each outcome's
 * `extract_from` is read inside the workspace; a link is taken at its `json_path` (one per item for `[*]`), a file or
 * artifact is the file itself (its stored copy when it is one of the step's artifacts, which outlives the workspace).
 * What cannot be taken is a warning, never a failure. Recorded on the step and published as `step_outcomes`.
 */
export async function recordStepOutcomes(context: RunContext, step: AttemptStep, workspace: string): Promise<void> {
  if (!step.outcomes?.length) return;
  const outcomes: Outcome[] = [];
  const warnings: string[] = [];
  for (const [i, def] of step.outcomes.entries()) {
    try {
      outcomes.push(...(await takeOutcome(context, step, def, workspace)));
    } catch (error) {
      if (!(error instanceof OutcomeWarning)) throw error;
      warnings.push(`outcome ${i + 1} (${def.label ?? def.type}): ${error.message}`);
    }
  }
  const redactor = artifactRedactor(context);
  const hidden = redactor ? outcomes.map((o) => ({ ...o, value: redactor.redact(o.value) })) : outcomes;
  emit(context, { type: 'step_outcomes', stepId: step.id, outcomes: hidden, warnings });
}

/** Why an outcome could not be taken: reported beside the others, the step stays as it is. */
class OutcomeWarning extends Error {}

async function takeOutcome(context: RunContext, step: AttemptStep, def: OutcomeDef, workspace: string): Promise<Outcome[]> {
  const label = def.label ?? def.type;
  const base = { type: def.type, source: def.extract_from };
  const isFile = isFileOutcome(def.type);
  const text = await readWorkspaceFile(workspace, def.extract_from, !isFile);
  if (isFile) return [{ ...base, label, value: storedCopy(context, step, def.extract_from) ?? resolve(workspace, def.extract_from) }];
  const jsonPath = def.json_path!;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new OutcomeWarning(`${def.extract_from} is not JSON (${(error as Error).message})`);
  }
  const segments = parseJsonPath(jsonPath);
  let values: string[];
  try {
    values = jsonPathValues(data, segments);
  } catch (error) {
    if (!(error instanceof JsonPathError)) throw error;
    throw new OutcomeWarning(
      error.emptyList ? `no items in ${error.emptyList} of ${def.extract_from}: nothing taken at ${jsonPath}` : `${jsonPath} in ${def.extract_from}: ${error.message}`,
    );
  }
  if (!takesEachItem(segments)) return [{ ...base, jsonPath, label, value: values[0]! }];
  if (values.length === 0) throw new OutcomeWarning(`the list at ${jsonPath} in ${def.extract_from} is empty: nothing taken`);
  const names = def.json_path_label ? itemLabels(data, def.json_path_label) : [];
  return values.map((value, i) => ({ ...base, jsonPath, value, label: names[i] ? `${label}: ${names[i]}` : `${label} (${i + 1}/${values.length})` }));
}

/** The names of the items a `json_path_label` gives; none when it leads nowhere (Wave ignores it then too). */
function itemLabels(data: unknown, path: string): string[] {
  try {
    return jsonPathValues(data, parseJsonPath(path));
  } catch {
    return [];
  }
}

/** The text of a file of the workspace (with `read`; else only its presence is checked), opened without following a symlink out of it. */
async function readWorkspaceFile(workspace: string, path: string, read: boolean): Promise<string> {
  let opened;
  try {
    opened = await openContained(workspace, path, { artifact: 'outcome', path });
  } catch (error) {
    if (error instanceof WaveError) throw new OutcomeWarning(`${path} leads outside the step's workspace`);
    throw new OutcomeWarning(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (!opened) throw new OutcomeWarning(`cannot read ${path}: the step did not write it`);
  try {
    const { stats, handle } = opened.entry;
    if (!stats.isFile()) throw new OutcomeWarning(`${path} is not a file`);
    if (!read) return '';
    if (stats.size > MAX_OUTCOME_FILE_BYTES) throw new OutcomeWarning(`${path} is larger than ${MAX_OUTCOME_FILE_BYTES / 1024 / 1024} MiB: not read`);
    return await handle.readFile('utf8');
  } finally {
    await opened.close();
  }
}

/** The run folder's copy of the step's artifact at `path`, when it is one: it is kept after the workspace is removed. */
function storedCopy(context: RunContext, step: AttemptStep, path: string): string | undefined {
  const wanted = posix.normalize(path);
  const def = step.outputArtifacts.find((a) => a.path !== undefined && posix.normalize(a.path) === wanted);
  return def && context.store.savedArtifactPath(step.id, def.name);
}
