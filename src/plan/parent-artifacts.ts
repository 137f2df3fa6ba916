import type { Step } from '../config/schema/pipeline-schema.js';
import type { TemplateReference } from './templates.js';

/**
 * What a parent run offers the steps of a child run as `{{ artifacts.<name> }}` (Wave's sub-pipeline injection): its
 * step's `config.inject`, and the output artifacts of that step's dependencies, which Wave passes without being asked;
 * each name to the pipeline whose artifact it is (the parent's, or, in a loop iteration, the pipeline around the loop).
 */
export type ParentArtifacts = Readonly<Record<string, string>>;

/**
 * `step` with an `inject_artifacts` entry of the parent for each offered artifact its templates name and it does not
 * inject itself: placed in its workspace like its own injections, so a sandboxed child step can read it.
 */
export function withParentArtifacts(step: Step, refs: readonly TemplateReference[], offered: ParentArtifacts | undefined): Step {
  if (!offered) return step;
  const own = step.memory?.inject_artifacts ?? [];
  const injected = new Set(own.map((ref) => ref.as ?? ref.artifact));
  const named = refs.flatMap((ref) => (ref.name.startsWith('artifacts.') ? [ref.name.slice('artifacts.'.length)] : []));
  const wanted = [...new Set(named)].filter((name) => Object.hasOwn(offered, name) && !injected.has(name));
  if (!wanted.length) return step;
  const added = wanted.map((artifact) => ({ pipeline: offered[artifact]!, artifact, as: artifact }));
  return { ...step, memory: { ...step.memory, inject_artifacts: [...own, ...added] } };
}
