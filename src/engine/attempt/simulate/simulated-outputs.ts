import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, normalize, resolve } from 'node:path';
import type { Failure } from '../../../core/errors/failure.js';
import { isInside } from '../../../core/inside-path.js';
import type { AttemptStep } from '../../../plan/plan-types.js';
import { placeholderFile } from './simulated-answers.js';
import { readFixture } from './simulate-fixtures.js';
import { sampleOfSchema } from './schema-sample.js';

/** Which of a simulated attempt's output files came from where: generated from a schema, placeholder text, or a fixture. */
export interface SimulatedFiles {
  generated: string[];
  placeholders: string[];
  fixtures: string[];
}

/** What a simulated attempt is given to write its outputs: the step, its workspace, the fixture folder (if any). */
export interface OutputsPlace {
  step: AttemptStep;
  workspace: string;
  fixtures?: string;
}

/** The files a step declares: its file artifacts and its json_schema and non_empty_file contracts' files, each once, in that order. */
export function declaredFiles(step: AttemptStep): string[] {
  const artifacts = step.outputArtifacts.flatMap((a) => (a.source !== 'stdout' && a.path ? [a.path] : []));
  const checked = step.contracts.flatMap((c) => ((c.type === 'json_schema' || c.type === 'non_empty_file') && c.target.kind === 'file' ? [c.target.path] : []));
  return [...new Set([...artifacts, ...checked].map((path) => normalize(path)))];
}

/** The JSON Schema of the step's first json_schema contract on `path`, if any. */
function schemaFor(step: AttemptStep, path: string): Record<string, unknown> | undefined {
  return step.contracts.find((c) => c.type === 'json_schema' && c.target.kind === 'file' && normalize(c.target.path) === path)?.schemaObject;
}

/** The failure of a schema no generated value satisfies, naming the step and what it was generated for. */
export function unsatisfiable(stepId: string, what: string, errors: readonly string[]): Failure {
  return {
    class: 'simulate_unsatisfiable',
    message: `--simulate could not generate ${what} of step \`${stepId}\` that satisfies its JSON Schema: ${errors.slice(0, 3).join('; ')}`,
    hint: `Fix the schema so some value can match it, or give the file as a fixture with --simulate-outputs <dir> (at <dir>/${stepId}/…).`,
  };
}

/**
 * Writes each file the step declares into its workspace as a simulated agent would: its fixture, else a value
 * generated from its json_schema contract (seeded by step and path, so the same pipeline gives the same files),
 * else placeholder text. A path that leads out of the workspace is left for the artifact check to refuse.
 */
export async function writeSimulatedOutputs(place: OutputsPlace): Promise<SimulatedFiles | { failure: Failure }> {
  const { step, workspace, fixtures } = place;
  const files: SimulatedFiles = { generated: [], placeholders: [], fixtures: [] };
  for (const path of declaredFiles(step)) {
    const fixture = fixtures !== undefined ? await readFixture(fixtures, step.id, path) : undefined;
    if (fixture && 'failure' in fixture) return fixture;
    const target = resolve(workspace, path);
    if (!isInside(workspace, target, false)) continue;
    let content: string | Buffer;
    if (fixture) {
      content = fixture.bytes;
      files.fixtures.push(path);
    } else {
      const schema = schemaFor(step, path);
      const sample = schema ? sampleOfSchema(schema, `${step.id}\0${path}`) : undefined;
      if (sample && !sample.ok) return { failure: unsatisfiable(step.id, path, sample.errors) };
      content = sample ? `${JSON.stringify(sample.value, null, 2)}\n` : placeholderFile(step.id, path);
      (sample ? files.generated : files.placeholders).push(path);
    }
    if (await insideWorkspace(workspace, target)) await writeFresh(target, content);
  }
  return files;
}

/** Whether the file's folder, once made, is really inside the workspace (no symlinked folder leads out of it). */
async function insideWorkspace(workspace: string, target: string): Promise<boolean> {
  await mkdir(dirname(target), { recursive: true });
  return isInside(await realpath(workspace), await realpath(dirname(target)));
}

/** Writes the file anew: a symlink left at its place is replaced, never written through. */
async function writeFresh(target: string, content: string | Buffer): Promise<void> {
  await rm(target, { force: true });
  await writeFile(target, content, { flag: 'wx' });
}
