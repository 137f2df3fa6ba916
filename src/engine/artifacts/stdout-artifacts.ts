import { copyFile, mkdir, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { Failure } from '../../core/errors/failure.js';
import type { AttemptStep, PlanRuntime } from '../../plan/plan-types.js';
import { isInside } from '../../core/inside-path.js';

/**
 * Wave's `runtime.artifacts` for a step's `source: stdout` artifacts: its stdout may not pass max_stdout_size,
 * and with default_artifact_dir each one is also written into the workspace at `<dir>/<step>/<name>`.
 */
export async function placeStdoutArtifacts(
  step: AttemptStep,
  runtime: Pick<PlanRuntime, 'maxStdoutBytes' | 'artifactDir'>,
  stdoutPath: string,
  workspace: string,
): Promise<Failure | undefined> {
  const fromStdout = step.outputArtifacts.filter((a) => a.source === 'stdout');
  if (!fromStdout.length) return undefined;
  const bytes = await stat(stdoutPath).then(
    (s) => s.size,
    () => 0,
  );
  if (bytes > runtime.maxStdoutBytes) {
    return {
      class: 'limit_exceeded',
      message: `stdout of step \`${step.id}\` is ${bytes} bytes, past runtime.artifacts.max_stdout_size (${runtime.maxStdoutBytes} bytes)`,
      hint: 'Make the step print less, or raise runtime.artifacts.max_stdout_size in wave.yaml.',
    };
  }
  if (!runtime.artifactDir || bytes === 0) return undefined;
  const dir = resolve(workspace, runtime.artifactDir, step.id);
  if (isAbsolute(runtime.artifactDir) || !isInside(workspace, dir)) {
    return {
      class: 'artifact_path_invalid',
      message: `runtime.artifacts.default_artifact_dir \`${runtime.artifactDir}\` leads out of the workspace ${workspace}`,
      hint: 'Give default_artifact_dir as a folder relative to the workspace, such as .agents/artifacts.',
    };
  }
  await mkdir(dir, { recursive: true });
  for (const artifact of fromStdout) await copyFile(stdoutPath, join(dir, artifact.name));
  return undefined;
}
