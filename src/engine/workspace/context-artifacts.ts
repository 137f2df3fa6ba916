import { join, relative } from 'node:path';
import type { AttemptStep } from '../../plan/plan-types.js';
import { artifactRedactor } from '../artifacts/artifact-redaction.js';
import { collectArtifacts } from '../artifacts/artifacts.js';
import { emit, type RunContext } from '../run/context.js';
import { CONTEXT_ARTIFACT_TYPE } from '../run/step-context.js';
import type { PreparedStep } from './step-files.js';

/**
 * Saves a failed attempt's `type: context` artifacts that it wrote (a missing one is no further failure): the values a
 * failure publishes are what its edges route on (`context.tests=red`).
 */
export async function saveContextArtifacts(context: RunContext, step: AttemptStep, prepared: PreparedStep, attempt: number): Promise<void> {
  const defs = step.outputArtifacts.filter((a) => a.type === CONTEXT_ARTIFACT_TYPE).map((a) => ({ ...a, required: false }));
  if (!defs.length) return;
  const { store } = context;
  const stdoutPath = join(store.attemptDir(step.id, attempt), 'stdout');
  try {
    const collected = await collectArtifacts({ workspace: prepared.workdir, defs, stdoutPath, destDir: store.artifactsDir(step.id), redactor: artifactRedactor(context) });
    for (const a of collected.saved)
      emit(context, { type: 'artifact_saved', stepId: step.id, name: a.name, path: relative(store.dir, a.path), bytes: a.bytes, artifactType: CONTEXT_ARTIFACT_TYPE });
  } catch {
    // The attempt already failed: an artifact it left unreadable only publishes nothing.
  }
}
