import { ancestorsOf } from '../../core/dag.js';
import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { undeclaredArtifactError } from './raw-step.js';
import { parseSubsetFrom } from './subset-from.js';
import { isRecord } from '../load/value-path.js';

/** What the check needs of a step: its place, id, dependencies and raw value. */
interface SubsetStep {
  index: number;
  id: string;
  dependencies: readonly string[];
  raw: Record<string, unknown>;
}

/**
 * Each `subset_from` must read `<step>.<artifact>.<json-path>`; when it names a step of this pipeline, that step must
 * run before (a dependency) and declare the artifact. A step not in this pipeline is Wave's parent-pipeline artifact:
 * accepted, and at run time the mount falls back to its whole source, as in Wave (a `mount_subset` event says so).
 */
export function mountSubsetErrors(step: SubsetStep, byId: ReadonlyMap<string, SubsetStep>, locator: Locator, opaque: ReadonlySet<string>): WaveError[] {
  const mounts = isRecord(step.raw.workspace) ? step.raw.workspace.mount : undefined;
  if (!Array.isArray(mounts)) return [];
  const errors: WaveError[] = [];
  // Found only when a mount names a step: most steps have none, and a long chain makes it costly.
  let ancestors: Set<string> | undefined;
  mounts.forEach((mount, i) => {
    if (!isRecord(mount) || typeof mount.subset_from !== 'string') return;
    const location = locator.locate(['steps', step.index, 'workspace', 'mount', i, 'subset_from']);
    const subset = parseSubsetFrom(mount.subset_from);
    if (!subset) {
      errors.push(
        new WaveError('wrong_type', `\`subset_from: ${mount.subset_from}\` of step \`${step.id}\` is not \`<step>.<artifact>.<json-path>\``, {
          location,
          hint: 'Name the step, its artifact and the JSON path of the list of files, such as `fetch-pr.pr-context.changed_files`.',
        }),
      );
      return;
    }
    const source = byId.get(subset.step);
    // A step an unsupported feature set aside has already been reported; what it would produce is unknown.
    if (!source || opaque.has(subset.step)) return;
    if (!(ancestors ??= ancestorsOf(step.id, byId)).has(subset.step)) {
      errors.push(
        new WaveError('unknown_dependency', `step \`${step.id}\` narrows a mount to an artifact of \`${subset.step}\`, which it does not depend on`, {
          location,
          hint: `Add \`${subset.step}\` to the dependencies of \`${step.id}\` so that it runs first.`,
        }),
      );
      return;
    }
    const undeclared = undeclaredArtifactError(subset.step, source.raw, subset.artifact, location);
    if (undeclared) errors.push(undeclared);
  });
  return errors;
}
