import { resolve } from 'node:path';
import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { resolvePipelinePath } from '../load/paths.js';
import { isRecord } from '../load/value-path.js';
import { readRawPipeline } from './pipeline-artifact-checks.js';
import { stripUnsupportedFeatures } from './unsupported-features.js';
import { stepLabel } from './raw-step.js';
import { isScriptStep } from '../schema/script-step.js';
import type { ManifestView } from './step-checks.js';

/** Keys of a step that runs attempts of an adapter: a child pipeline step runs none, so they would do nothing there. */
export const ATTEMPT_KEYS = [
  'persona',
  'adapter',
  'model',
  'exec',
  'timeout_minutes',
  'env',
  'workspace',
  'output_artifacts',
  'memory',
  'handover',
  'retry',
  'extract',
  'outcomes',
  'thread',
  'fidelity',
  'skills',
  'max_concurrent_agents',
  'type',
  'script',
] as const;

/** A `conflicting_fields` error for each of `keys` the step sets, once each: keys another kind of step reads, which would do nothing here. */
export function idleKeyErrors(
  step: Record<string, unknown>,
  keys: readonly string[],
  say: (key: string) => { location: SourceLocation; message: string; hint: string },
): WaveError[] {
  return [...new Set(keys)]
    .filter((key) => step[key] !== undefined)
    .map((key) => {
      const { location, message, hint } = say(key);
      return new WaveError('conflicting_fields', message, { location, hint });
    });
}

/** A name or path that is a template (`{{ item }}` under iterate): which child it is is known only at run time. */
export function isTemplatedName(name: string): boolean {
  return name.includes('{{');
}

/** A step's problems as a child pipeline step: it runs a child or a prompt/command, not both, and its child exists. */
export function childPipelineStepErrors(step: Record<string, unknown>, index: number, view: ManifestView, locator: Locator): WaveError[] {
  const at = ['steps', index];
  const label = stepLabel(step, index);
  if (step.aggregate !== undefined) return aggregateStepErrors(step, at, label, locator);
  if (step.branch !== undefined) return branchStepErrors(step, at, label, view, locator);
  // A loop runs its sub-steps: loop-checks.ts checks it.
  if (step.loop !== undefined) return [];
  // A gate and a conditional step run nothing: gate-checks.ts and graph-checks.ts check them with the pipeline's step ids.
  if (step.gate !== undefined || step.type === 'conditional') return [];
  if (step.pipeline === undefined) {
    const childKeys = (['input', 'config', 'iterate'] as const).filter((key) => step[key] !== undefined);
    const orphans = childKeys.map(
      (key) =>
        new WaveError('missing_field', `${label} sets \`${key}\`, which is a child pipeline's, but has no \`pipeline\``, {
          location: locator.locateKey([...at, key]),
          hint: `Add \`pipeline: <name>\` to run a child pipeline as the step, or remove \`${key}\`.`,
        }),
    );
    if (step.exec !== undefined || isScriptStep(step)) return orphans;
    return [
      ...orphans,
      new WaveError('missing_field', `${label} has neither \`exec\` (a prompt or command) nor \`pipeline\` (a child pipeline)`, {
        location: locator.locate([...at, 'exec']),
        hint: 'Add `exec: { source: … }` with the prompt or command, or `pipeline: <name>` to run a child pipeline as the step.',
      }),
    ];
  }
  // Wave's `type: pipeline` says what the `pipeline` key does.
  const idle = step.type === 'pipeline' ? ATTEMPT_KEYS.filter((key) => key !== 'type') : ATTEMPT_KEYS;
  const errors = idleKeyErrors(step, idle, (key) => ({
    location: locator.locateKey([...at, key]),
    message: `${label} runs the child pipeline \`${String(step.pipeline)}\`, so its \`${key}\` would do nothing`,
    hint: `Remove \`${key}\`: the child's own steps say how they run. To run a prompt or command instead, remove \`pipeline\`.`,
  }));
  for (const name of childNames(step)) {
    const problem = missingChild(name, label, view, locator.locate([...at, 'pipeline'])) ?? refusedChild(name, label, view, locator.locate([...at, 'pipeline']));
    if (problem) errors.push(problem);
    else errors.push(...idleLoopLimit(step, name, label, view, locator.locate([...at, 'config', 'max_cycles'])));
  }
  return errors;
}

/** `config.max_cycles` reaches only the child's loop steps that set no max_iterations: with none, it would do nothing. */
function idleLoopLimit(step: Record<string, unknown>, name: string, label: string, view: ManifestView, location: SourceLocation): WaveError[] {
  if (!isRecord(step.config) || step.config.max_cycles === undefined) return [];
  const file = childFile(name, view.dir);
  const raw = file ? readRawPipeline(file) : undefined;
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps.filter(isRecord) : [];
  if (steps.some((child) => isRecord(child.loop) && child.loop.max_iterations === undefined)) return [];
  return [
    new WaveError(
      'conflicting_fields',
      `${label} sets \`config.max_cycles\`, but the child \`${name}\` has no loop step without a \`max_iterations\` of its own, so it would do nothing`,
      {
        location,
        hint: "Remove `config.max_cycles`, or leave `max_iterations` out of the child's loop step that should take it.",
      },
    ),
  ];
}

/**
 * A child (or a child of it) that uses a feature this version refuses: the parent cannot run to its end either, so it is
 * refused before anything runs, naming the features; undefined when the whole chain loads.
 */
function refusedChild(name: string, label: string, view: ManifestView, location: SourceLocation): WaveError | undefined {
  const file = childFile(name, view.dir);
  const refused = file ? refusedFeatures(file, view, new Set([file])) : [];
  if (!refused.length) return undefined;
  return new WaveError('not_supported', `${label} runs the child pipeline \`${name}\`, which uses what this version does not run yet: ${[...new Set(refused)].join('; ')}`, {
    location,
    hint: 'Validate the child pipeline to see where; the section "Wave compatibility" of docs/pipelines.md lists what this version runs.',
  });
}

/** The refused features of a pipeline file and of the children it names (each file once), as their messages name them. */
function refusedFeatures(file: string, view: ManifestView, seen: Set<string>): string[] {
  const raw = readRawPipeline(file);
  const at = { file };
  const own = stripUnsupportedFeatures(structuredClone(raw), 'pipeline', { locate: () => at, locateKey: () => at }).errors.map((e) =>
    e.message.replace(/ is not supported yet$/, ''),
  );
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps.filter(isRecord) : [];
  const below = steps.flatMap((step) => {
    const child = childFile(step.pipeline, view.dir);
    if (!child || seen.has(child)) return [];
    seen.add(child);
    return refusedFeatures(child, view, seen);
  });
  return [...own, ...below];
}

/** A child pipeline name that resolves to no file: the error, at `location`; undefined when it resolves. */
function missingChild(name: string, label: string, view: ManifestView, location: SourceLocation): WaveError | undefined {
  try {
    resolvePipelinePath(name, view.dir, view.dir);
    return undefined;
  } catch (error) {
    if (!(error instanceof WaveError)) throw error;
    const message =
      error.code === 'file_not_found'
        ? `${label} runs the child pipeline \`${name}\`, which is neither a file nor a name in pipelines/ or .agents/pipelines/`
        : `${label}: ${error.message}`;
    return new WaveError(error.code, message, { location, hint: error.hint });
  }
}

/** A branch step runs one of its cases' children: keys of another kind of step would do nothing, and each case's child must exist. */
function branchStepErrors(step: Record<string, unknown>, at: readonly (string | number)[], label: string, view: ManifestView, locator: Locator): WaveError[] {
  const errors = idleKeyErrors(step, [...ATTEMPT_KEYS, 'pipeline', 'config', 'iterate'], (key) => ({
    location: locator.locateKey([...at, key]),
    message: `${label} branches, so its \`${key}\` would do nothing`,
    hint: `Remove \`${key}\`: the child each case names says how it runs.`,
  }));
  const cases = isRecord(step.branch) && isRecord(step.branch.cases) ? step.branch.cases : {};
  for (const [value, name] of Object.entries(cases)) {
    if (typeof name !== 'string' || name === 'skip' || isTemplatedName(name)) continue;
    const where = locator.locate([...at, 'branch', 'cases', value]);
    const problem = missingChild(name, label, view, where) ?? refusedChild(name, label, view, where);
    if (problem) errors.push(problem);
  }
  return errors;
}

/** An aggregate step runs nothing: a prompt, command or child beside it, or a key of one, would do nothing. */
function aggregateStepErrors(step: Record<string, unknown>, at: readonly (string | number)[], label: string, locator: Locator): WaveError[] {
  return idleKeyErrors(step, [...ATTEMPT_KEYS, 'pipeline', 'input', 'config', 'iterate'], (key) => ({
    location: locator.locateKey([...at, key]),
    message: `${label} aggregates, so its \`${key}\` would do nothing`,
    hint: `Remove \`${key}\`, or move the aggregation into a step of its own.`,
  }));
}

/** The child names a step runs that are known before it runs: its own, or, templated (`{{ item }}`, `{{ item.<field> }}`) on the items of a literal `iterate.over` list, each item's. */
function childNames(step: Record<string, unknown>): string[] {
  if (typeof step.pipeline !== 'string') return [];
  if (!isTemplatedName(step.pipeline)) return [step.pipeline];
  const over = isRecord(step.iterate) && typeof step.iterate.over === 'string' ? step.iterate.over : '';
  let items: unknown;
  try {
    items = JSON.parse(over);
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  const template = step.pipeline;
  const names = items.map((item) =>
    template.replace(/\{\{\s*item((?:\.[\w-]+)*)\s*\}\}/g, (whole, path: string) => {
      const value = path
        .split('.')
        .slice(1)
        .reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), item);
      return value === undefined ? whole : typeof value === 'string' ? value : JSON.stringify(value);
    }),
  );
  return [...new Set(names.filter((name) => !isTemplatedName(name)))];
}

/**
 * A chain of child pipelines that comes back to one of its own (a → b → a) would start children without end: refused
 * at the first step of this pipeline that starts it, naming the chain. Children that do not load are left to their own check.
 */
export function childPipelineCycleErrors(root: Record<string, unknown>, view: ManifestView, locator: Locator): WaveError[] {
  const self = resolve(locator.locate([]).file ?? '');
  const steps = Array.isArray(root.steps) ? root.steps : [];
  const errors: WaveError[] = [];
  steps.forEach((step, index) => {
    const child = isRecord(step) ? childFile(step.pipeline, view.dir) : undefined;
    if (!child) return;
    const chain = chainBackTo(self, child, view.dir, [self, child]);
    if (!chain) return;
    const names = chain.map((file) => pipelineName(file));
    errors.push(
      new WaveError('pipeline_cycle', `${stepLabel(step as Record<string, unknown>, index)} starts a chain of child pipelines that runs itself again: ${names.join(' → ')}`, {
        location: locator.locate(['steps', index, 'pipeline']),
        hint: 'Break the chain: a pipeline may not be its own descendant.',
      }),
    );
  });
  return errors;
}

/** The chain of files from `at` back to `target`, or undefined when none of `at`'s descendants is `target`. */
function chainBackTo(target: string, at: string, dir: string, chain: string[]): string[] | undefined {
  if (at === target) return chain;
  for (const child of childFilesOf(at, dir)) {
    // A cycle that does not pass through `target` is reported where it starts, in its own file.
    if (chain.includes(child) && child !== target) continue;
    const found = chainBackTo(target, child, dir, [...chain, child]);
    if (found) return found;
  }
  return undefined;
}

/** The child pipeline files a pipeline file names (not templated ones), as far as it can be read. */
function childFilesOf(file: string, dir: string): string[] {
  const raw = readRawPipeline(file);
  const steps = isRecord(raw) && Array.isArray(raw.steps) ? raw.steps : [];
  return steps.flatMap((step) => {
    const child = isRecord(step) ? childFile(step.pipeline, dir) : undefined;
    return child ? [child] : [];
  });
}

function childFile(name: unknown, dir: string): string | undefined {
  if (typeof name !== 'string' || isTemplatedName(name)) return undefined;
  try {
    return resolve(resolvePipelinePath(name, dir, dir));
  } catch {
    return undefined;
  }
}

function pipelineName(file: string): string {
  return file
    .split('/')
    .at(-1)!
    .replace(/\.ya?ml$/, '');
}
