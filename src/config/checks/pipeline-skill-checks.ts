import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { fillProjectPlaceholders } from '../load/project-placeholders.js';
import { stepLabel } from './raw-step.js';
import { skillRefErrors } from './skill-refs.js';
import type { ManifestView } from './step-checks.js';
import { isRecord, type Path } from '../load/value-path.js';

/** Every skill a pipeline lists (its own `skills` and each step's), each filled from `project` and found beside wave.yaml. */
export function checkPipelineSkills(root: unknown, view: ManifestView, locator: Locator): WaveError[] {
  if (!isRecord(root)) return [];
  const errors = listErrors(root.skills, ['skills'], 'the pipeline', view, locator);
  if (Array.isArray(root.steps)) {
    root.steps.forEach((step, index) => {
      if (!isRecord(step)) return;
      errors.push(...listErrors(step.skills, ['steps', index, 'skills'], stepLabel(step, index), view, locator));
    });
  }
  return errors;
}

function listErrors(list: unknown, path: Path, who: string, view: ManifestView, locator: Locator): WaveError[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i) => {
    if (typeof entry !== 'string') return [];
    const location = locator.locate([...path, i]);
    const filled = fillProjectPlaceholders(entry, view.project ?? {});
    if ('unknown' in filled) return [placeholderError(filled.unknown, `${who} lists skill`, location)];
    // An unset `{{ project.<key> }}` names no skill, as in Wave.
    if (filled.text === '') return [];
    return skillRefErrors(filled.text, who, view.dir, location);
  });
}

/** A name that uses a template variable other than `{{ project.<key> }}`: it must be known before the run starts. */
export function placeholderError(reference: string, what: string, location: SourceLocation): WaveError {
  return new WaveError('template_invalid', `${what} \`${reference}\`, which is not known before the run starts`, {
    location,
    hint: "A skill or tool name may use {{ project.<key> }} (from the manifest's `project`), nothing else.",
  });
}
