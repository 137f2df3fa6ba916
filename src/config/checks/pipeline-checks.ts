import { WaveError } from '../../core/errors/errors.js';
import { ancestorsOf, findCycle } from '../../core/dag.js';
import type { Locator } from '../load/locator.js';
import { agentStepKeyErrors } from '../schema/agent-step-keys.js';
import { checkDeliverables } from './deliverable-checks.js';
import { mountSubsetErrors } from './mount-subset-checks.js';
import { checkPipelineSkills } from './pipeline-skill-checks.js';
import { checkRequires } from './requires-checks.js';
import { declaredArtifacts, stepLabel, undeclaredArtifactError } from './raw-step.js';
import { checkStepReferences, type ManifestView } from './step-checks.js';
import { childPipelineCycleErrors, childPipelineStepErrors } from './child-pipeline-checks.js';
import { pipelineArtifactNames, pipelineArtifactRefErrors, type PipelineArtifactNames } from './pipeline-artifact-checks.js';
import { enclosingPipelineOf } from '../load/loop-body.js';
import { gateStepErrors, gateTypeErrors } from './gate-checks.js';
import { graphStepErrors } from './graph-checks.js';
import { loopStepErrors } from './loop-checks.js';
import { stepEnvReferenceErrors } from './step-env-refs.js';
import { reworkErrors } from './rework-checks.js';
import { didYouMean } from './suggest.js';
import { isRecord, type Path } from '../load/value-path.js';

/** Dependency checks are quadratic on long chains; no hand-written pipeline comes near this. */
const MAX_STEPS = 5000;

interface StepEntry {
  index: number;
  id: string;
  raw: Record<string, unknown>;
  dependencies: string[];
}

/**
 * Cross-references of a pipeline, checked on the raw value so they are found even when the schema
 * check failed elsewhere: duplicate ids, dependencies, cycles, injected artifacts, and per-step references.
 * `suppressed` holds the paths an unsupported feature took (its report stands for what follows from it).
 */
export function checkPipelineReferences(root: unknown, view: ManifestView, locator: Locator, suppressed: readonly Path[] = []): WaveError[] {
  if (!isRecord(root) || !Array.isArray(root.steps)) return [];
  if (root.steps.length > MAX_STEPS) {
    return [
      new WaveError('input_too_large', `refusing to check ${root.steps.length} steps (at most ${MAX_STEPS})`, {
        location: locator.locate(['steps']),
        hint: 'Split the work into several pipelines.',
      }),
    ];
  }
  // A child pipeline's (or a loop's sub-steps') artifacts are named there: references to them are checked when it runs.
  const opaque = new Set(root.steps.flatMap((s) => (isRecord(s) && (s.pipeline !== undefined || s.loop !== undefined) && typeof s.id === 'string' ? [s.id] : [])));
  const errors: WaveError[] = [
    ...checkPipelineSkills(root, view, locator),
    ...checkRequires(root, view, locator),
    ...checkDeliverables(root, locator, opaque),
    ...childPipelineCycleErrors(root, view, locator),
  ];
  const byId = new Map<string, StepEntry>();
  const stepIds = root.steps.flatMap((s) => (isRecord(s) && typeof s.id === 'string' ? [s.id] : []));
  root.steps.forEach((raw, index) => {
    if (!isRecord(raw)) return;
    errors.push(...checkStepReferences(raw, index, view, locator));
    // A step whose `exec` an unsupported feature took (a slash command) lacks it by design: that report stands for it.
    const execTaken = suppressed.some((path) => path.length === 3 && path[0] === 'steps' && path[1] === index && path[2] === 'exec');
    if (!execTaken) errors.push(...childPipelineStepErrors(raw, index, view, locator));
    errors.push(...stepEnvReferenceErrors(raw, index, locator));
    errors.push(...pipelineArtifactRefErrors(raw, index, view, locator));
    if (raw.gate !== undefined) errors.push(...gateStepErrors(raw, index, stepIds, locator));
    if (raw.loop !== undefined) errors.push(...loopStepErrors(raw, index, locator));
    errors.push(...gateTypeErrors(raw, index, locator));
    errors.push(...graphStepErrors(raw, index, stepIds, locator));
    errors.push(...agentStepKeyErrors(raw, index, stepLabel(raw, index), locator));
    if (typeof raw.id !== 'string') return;
    const first = byId.get(raw.id);
    if (first) {
      const line = locator.locate(['steps', first.index, 'id']).line;
      errors.push(
        new WaveError('duplicate_step', `step id \`${raw.id}\` is already used by the step at line ${line}`, {
          location: locator.locate(['steps', index, 'id']),
          hint: 'Give every step its own id.',
        }),
      );
      return;
    }
    const dependencies = Array.isArray(raw.dependencies) ? raw.dependencies.filter((d): d is string => typeof d === 'string') : [];
    byId.set(raw.id, { index, id: raw.id, raw, dependencies });
  });
  const ids = [...byId.keys()];
  for (const step of byId.values()) {
    if (!Array.isArray(step.raw.dependencies)) continue;
    step.raw.dependencies.forEach((dep: unknown, i) => {
      if (typeof dep !== 'string' || byId.has(dep)) return;
      errors.push(
        new WaveError('unknown_dependency', `step \`${step.id}\` depends on \`${dep}\`, which is not a step of this pipeline`, {
          location: locator.locate(['steps', step.index, 'dependencies', i]),
          hint: didYouMean(dep, ids, 'Steps of this pipeline'),
        }),
      );
    });
  }
  const cycle = findCycle([...byId.values()]);
  if (cycle) errors.push(cycleError(cycle, byId, locator));
  else {
    const aroundNames = artifactNamesAroundLoop(root);
    for (const step of byId.values()) errors.push(...checkInjections(step, byId, locator, opaque), ...checkChildInjections(step, { byId, locator, opaque, aroundNames }));
    for (const step of byId.values()) errors.push(...mountSubsetErrors(step, byId, locator, opaque));
    errors.push(...checkThreads([...byId.values()], byId, locator));
    errors.push(...reworkErrors([...byId.values()], locator));
  }
  return errors;
}

/**
 * Wave's rule for a thread: each of its steps after the first depends (transitively) on an earlier one, so no two
 * run at once; `fidelity` without a thread would do nothing.
 */
function checkThreads(steps: StepEntry[], byId: Map<string, StepEntry>, locator: Locator): WaveError[] {
  const errors: WaveError[] = [];
  const threads = new Map<string, StepEntry[]>();
  for (const step of steps) {
    // A rework step runs when the step it fixes failed, never beside it (Wave leaves them out too).
    if (step.raw.rework_only === true) continue;
    const thread = step.raw.thread;
    if (typeof thread === 'string') threads.set(thread, [...(threads.get(thread) ?? []), step]);
    else if (step.raw.fidelity !== undefined) {
      errors.push(
        new WaveError('missing_field', `step \`${step.id}\` sets fidelity but is in no thread, so it would receive nothing`, {
          location: locator.locate(['steps', step.index, 'fidelity']),
          hint: 'Add `thread: <name>` shared with the steps whose transcripts it should read, or remove `fidelity`.',
        }),
      );
    }
  }
  for (const [thread, members] of threads) {
    members.slice(1).forEach((step, i) => {
      const ancestors = ancestorsOf(step.id, byId);
      const earlier = members.slice(0, i + 1);
      if (earlier.some((e) => ancestors.has(e.id))) return;
      const previous = earlier.at(-1)!;
      errors.push(
        new WaveError(
          'thread_unordered',
          `step \`${step.id}\` of thread \`${thread}\` depends on no earlier step of the thread, so it could run at the same time as \`${previous.id}\``,
          {
            location: locator.locate(['steps', step.index, 'thread']),
            hint: `Add \`${previous.id}\` to the dependencies of \`${step.id}\`: the steps of a thread run one after another.`,
          },
        ),
      );
    });
  }
  return errors;
}

function cycleError(cycle: string[], byId: Map<string, StepEntry>, locator: Locator): WaveError {
  const from = byId.get(cycle[0]!)!;
  const entry = (from.raw.dependencies as unknown[]).indexOf(cycle[1]);
  return new WaveError('dag_cycle', `the steps depend on each other in a cycle: ${cycle.join(' → ')}`, {
    location: locator.locate(['steps', from.index, 'dependencies', entry]),
    hint: 'Remove one of these dependencies: a step can only use what runs before it.',
  });
}

/** In a loop's body, the artifacts of the pipeline around the loop (its sub-steps share that run's, as in Wave). */
function artifactNamesAroundLoop(root: unknown): PipelineArtifactNames | undefined {
  const around = enclosingPipelineOf(root);
  return around !== undefined ? pipelineArtifactNames(around) : undefined;
}

/**
 * Each artifact a child step hands its child (`config.inject`) must be declared by a step it depends on (in a loop's
 * sub-step, or by a step of the pipeline around the loop), unless one of them runs a child (whose artifacts only the run knows).
 */
function checkChildInjections(
  step: StepEntry,
  at: { byId: Map<string, StepEntry>; locator: Locator; opaque: ReadonlySet<string>; aroundNames?: PipelineArtifactNames },
): WaveError[] {
  const { byId, locator, opaque, aroundNames } = at;
  const config = step.raw.config;
  if (!isRecord(config) || !Array.isArray(config.inject)) return [];
  const ancestors = [...ancestorsOf(step.id, byId)];
  if (aroundNames?.open || ancestors.some((id) => opaque.has(id) || byId.get(id)?.raw.branch !== undefined)) return [];
  const declared = [...ancestors.flatMap((id) => declaredArtifacts(byId.get(id)!.raw)), ...(aroundNames?.declared ?? [])];
  return config.inject.flatMap((name: unknown, i) =>
    typeof name !== 'string' || declared.includes(name)
      ? []
      : [
          new WaveError('unknown_artifact', `step \`${step.id}\` hands its child \`${name}\`, which no step it depends on declares`, {
            location: locator.locate(['steps', step.index, 'config', 'inject', i]),
            hint: didYouMean(name, declared, 'Artifacts of the steps it depends on'),
          }),
        ],
  );
}

/** Each injected artifact must come from a (transitive) dependency that declares it. */
function checkInjections(step: StepEntry, byId: Map<string, StepEntry>, locator: Locator, opaque: ReadonlySet<string>): WaveError[] {
  const memory = step.raw.memory;
  if (!isRecord(memory) || !Array.isArray(memory.inject_artifacts)) return [];
  const ancestors = ancestorsOf(step.id, byId);
  const errors: WaveError[] = [];
  memory.inject_artifacts.forEach((ref, i) => {
    // One that names a pipeline too is refused as such (pipeline-artifact-checks.ts).
    if (!isRecord(ref) || typeof ref.step !== 'string' || ref.pipeline !== undefined || opaque.has(ref.step)) return;
    const at = ['steps', step.index, 'memory', 'inject_artifacts', i];
    const source = byId.get(ref.step);
    if (!source || !ancestors.has(ref.step)) {
      errors.push(
        new WaveError(
          'unknown_dependency',
          source
            ? `step \`${step.id}\` injects an artifact from \`${ref.step}\`, which it does not depend on`
            : `step \`${step.id}\` injects an artifact from \`${ref.step}\`, which is not a step of this pipeline`,
          {
            location: locator.locate([...at, 'step']),
            hint: source ? `Add \`${ref.step}\` to the dependencies of \`${step.id}\` so that it runs first.` : didYouMean(ref.step, [...ancestors], 'Steps it depends on'),
          },
        ),
      );
      return;
    }
    if (typeof ref.artifact !== 'string') return;
    const undeclared = undeclaredArtifactError(ref.step, source.raw, ref.artifact, locator.locate([...at, 'artifact']));
    if (undeclared) errors.push(undeclared);
  });
  return errors;
}
