import { stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { InjectArtifact } from '../../config/schema/pipeline-schema.js';
import { WaveError } from '../../core/errors/errors.js';
import { copyContained, writeArtifactText } from './artifact-copy.js';
import { isInside } from '../../core/inside-path.js';
import { resolveInside } from '../workspace/workspace-paths.js';
import type { ArtifactLocation } from './pipeline-artifacts.js';

/** One `memory.inject_artifacts` entry: of an earlier step, or of another pipeline. */
export type InjectRef = Pick<InjectArtifact, 'step' | 'pipeline' | 'artifact' | 'as' | 'optional'>;

export interface InjectArtifactsOptions {
  workspace: string;
  /** The folder they land in, relative to the workspace (the plan's injectedArtifactsDir). */
  dir: string;
  refs: readonly InjectRef[];
  /** Where the artifact a reference names is, or undefined when its step or pipeline has none of that name. */
  locate: (ref: InjectRef) => ArtifactLocation | undefined;
}

/**
 * Copies each referenced artifact into `<workspace>/<dir>/<as>` (`as` defaults to the artifact's name)
 * and returns `as` -> absolute path, the values of `{{ artifacts.<as> }}`. A missing artifact is artifact_missing
 * unless the reference is optional (then it is left out of the map).
 */
export async function injectArtifacts(options: InjectArtifactsOptions): Promise<Record<string, string>> {
  const folder = resolve(options.workspace, options.dir);
  const placed: Record<string, string> = {};
  for (const ref of options.refs) {
    const as = ref.as ?? ref.artifact;
    const dest = await destinationOf(options.workspace, folder, as, options.dir);
    const from = options.locate(ref);
    const found =
      from !== undefined &&
      ('text' in from ||
        (await stat(from.path).then(
          () => true,
          () => false,
        )));
    if (!found) {
      if (ref.optional) continue;
      throw missingError(ref, from);
    }
    if ('text' in from) await writeArtifactText(dest, from.text);
    else await copyContained(from.path, dest, dirname(from.path), { artifact: ref.artifact, path: from.path });
    placed[as] = dest;
  }
  return placed;
}

function missingError(ref: InjectRef, from: ArtifactLocation | undefined): WaveError {
  const looked = from && 'path' in from ? `: looked at ${from.path}` : '';
  if (ref.pipeline !== undefined)
    return new WaveError('artifact_missing', `artifact \`${ref.artifact}\` of pipeline \`${ref.pipeline}\` is not available${looked}`, {
      hint: `Pipeline \`${ref.pipeline}\` must save \`${ref.artifact}\` (an output artifact or a pipeline output) before this step runs; mark the injection \`optional: true\` to run without it.`,
    });
  return new WaveError('artifact_missing', `artifact \`${ref.artifact}\` of step \`${ref.step}\` is not available${looked}`, {
    hint: `Step \`${ref.step}\` must list \`${ref.artifact}\` in output_artifacts and complete; mark the injection \`optional: true\` to run without it.`,
  });
}

async function destinationOf(workspace: string, folder: string, as: string, dir: string): Promise<string> {
  const lexical = resolve(folder, as);
  // Checked against the workspace too: a `.wave` symlink left by an earlier step must not lead the copy out.
  const dest = isInside(folder, lexical, false) ? await resolveInside(workspace, relative(workspace, lexical)) : undefined;
  if (dest) return dest;
  throw new WaveError('artifact_path_invalid', `inject_artifacts \`as: ${as}\` leads outside ${dir} of the step workspace`, {
    hint: 'Use a plain file name for `as`, such as `report.md`.',
  });
}
