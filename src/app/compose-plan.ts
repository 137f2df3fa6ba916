import { pipelineArtifactNames } from '../config/checks/pipeline-artifact-checks.js';
import type { Pipeline } from '../config/schema/pipeline-schema.js';
import { WaveError } from '../core/errors/errors.js';

/** A pipeline of a composition, loaded: its name, its file and its value. */
export interface ComposedPipeline {
  name: string;
  file: string;
  value: Pipeline;
}

/** One hand-off of a composition: a step that injects an artifact of another pipeline, and whether that pipeline hands it over. */
export interface HandOff {
  consumer: string;
  step: string;
  pipeline: string;
  artifact: string;
  as: string;
  optional: boolean;
  /** ok: an earlier stage declares it; unknown: an earlier stage runs a child, so only the run can tell; else why it is not had. */
  verdict: 'ok' | 'unknown' | 'not_declared' | 'same_stage' | 'later_stage' | 'not_composed';
}

/**
 * The stages of `wave compose A B -- C D`: without `--parallel` every pipeline is a stage of its own, in order; with
 * it, each group between `--` is one stage whose pipelines run side by side.
 */
export function composeStages(operands: readonly string[], parallel: boolean): string[][] {
  const groups: string[][] = [[]];
  for (const operand of operands) {
    if (operand === '--') groups.push([]);
    else groups.at(-1)!.push(operand);
  }
  const stages = groups.filter((group) => group.length > 0);
  const count = stages.flat().length;
  if (count < 2)
    throw new WaveError('invalid_argument', `wave compose needs at least two pipelines, got ${count}`, { hint: 'Name the pipelines in the order they run: `wave compose A B`.' });
  return parallel ? stages : stages.flat().map((name) => [name]);
}

/** Every artifact a pipeline of the composition injects from another pipeline, and whether an earlier stage hands it over. */
export function handOffs(stages: readonly (readonly ComposedPipeline[])[]): HandOff[] {
  const stageOf = new Map(stages.flatMap((stage, index) => stage.map((p) => [p.name, index] as const)));
  const byName = new Map(stages.flat().map((p) => [p.name, p]));
  return stages.flatMap((stage, index) =>
    stage.flatMap((consumer) =>
      consumer.value.steps.flatMap((step) =>
        (step.memory?.inject_artifacts ?? []).flatMap((ref) => {
          if (ref.pipeline === undefined) return [];
          const producer = stageOf.get(ref.pipeline);
          const names = pipelineArtifactNames(byName.get(ref.pipeline)?.value);
          const verdict: HandOff['verdict'] =
            producer === undefined
              ? 'not_composed'
              : producer === index
                ? 'same_stage'
                : producer > index
                  ? 'later_stage'
                  : names.declared.includes(ref.artifact)
                    ? 'ok'
                    : names.open
                      ? 'unknown'
                      : 'not_declared';
          return [{ consumer: consumer.name, step: step.id, pipeline: ref.pipeline, artifact: ref.artifact, as: ref.as ?? ref.artifact, optional: ref.optional ?? false, verdict }];
        }),
      ),
    ),
  );
}

const WHY: Record<Exclude<HandOff['verdict'], 'ok' | 'unknown'>, (h: HandOff) => string> = {
  not_declared: (h) => `${h.pipeline} declares no output artifact or pipeline output \`${h.artifact}\``,
  same_stage: (h) => `${h.pipeline} runs beside ${h.consumer}, not before it`,
  later_stage: (h) => `${h.pipeline} runs after ${h.consumer}`,
  not_composed: (h) => `${h.pipeline} is not part of this composition`,
};

/** The hand-off report `wave compose` prints: the stages, each hand-off, and the count of errors and warnings. */
export function handOffReport(stages: readonly (readonly ComposedPipeline[])[], offs: readonly HandOff[]): { text: string; errors: number } {
  const lines = [`Composition: ${stages.map((stage) => stage.map((p) => p.name).join(' + ')).join(' → ')}`];
  stages.forEach((stage, index) => lines.push(`Stage ${index + 1}: ${stage.map((p) => p.name).join(', ')}${stage.length > 1 ? ' (side by side)' : ''}`));
  let errors = 0;
  let warnings = 0;
  for (const off of offs) {
    const what = `${off.consumer}/${off.step} ← ${off.pipeline} ${off.artifact}${off.as !== off.artifact ? ` (as ${off.as})` : ''}`;
    if (off.verdict === 'ok') lines.push(`  ✓ ${what}`);
    else if (off.verdict === 'unknown') lines.push(`  ~ ${what}: ${off.pipeline} runs child pipelines, so the run tells`);
    else {
      if (off.optional) warnings++;
      else errors++;
      lines.push(`  ${off.optional ? '!' : '✗'} ${what}: ${WHY[off.verdict](off)}${off.optional ? ' (optional: the step runs without it)' : ''}`);
    }
  }
  if (offs.length === 0) lines.push('  (no pipeline injects an artifact of another)');
  lines.push(`Result: ${errors} error(s), ${warnings} warning(s)`);
  return { text: `${lines.join('\n')}\n`, errors };
}
