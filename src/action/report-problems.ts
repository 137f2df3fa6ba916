import { isAbsolute, relative } from 'node:path';
import * as core from '@actions/core';
import { WaveError, WaveErrors } from '../core/errors/errors.js';
import { printAnnotations, type Annotation } from '../report/github/github-annotations.js';
import { formatFaultSummary, formatProblemsSummary, summaryProblems } from '../report/github/github-problems-summary.js';

/** A path as GitHub links it: from the repository root. */
export function fromRoot(file: string, repositoryRoot: string): string {
  return isAbsolute(file) ? relative(repositoryRoot, file) : file;
}

/** Wave's problems as annotations of `level` at their locations (paths from the repository root), each with its hint; returns how many errors were printed. */
export function annotateProblems(level: Annotation['level'], problems: readonly WaveError[], root: string): number {
  return printAnnotations(
    problems.map((p) => ({
      level,
      title: `Wave: ${p.code}`,
      message: p.hint ? `${p.message}\nHint: ${p.hint}` : p.message,
      file: p.location ? fromRoot(p.location.file, root) : undefined,
      line: p.location?.line,
      column: p.location?.column,
    })),
  );
}

/**
 * A run that could not start: bad input (a wrong action input, a manifest or pipeline problem) as error annotations at
 * its locations, anything else as one error; either way the job summary says what was wrong, where, and what to do.
 */
export async function reportError(error: unknown, root: string): Promise<void> {
  const problems = error instanceof WaveErrors ? error.errors : error instanceof WaveError ? [error] : [];
  if (problems.length === 0) {
    const message = error instanceof Error ? error.message : String(error);
    core.error(error instanceof Error ? (error.stack ?? message) : message, { title: 'Wave: internal error' });
    await writeSummary(formatFaultSummary(message));
    return;
  }
  annotateProblems('error', problems, root);
  const where = ({ location }: WaveError) => location && [fromRoot(location.file, root), location.line, location.column].filter((p) => p !== undefined).join(':');
  await writeSummary(formatProblemsSummary(summaryProblems(problems, where)));
}

/** Writes the job summary; a runner without one (GITHUB_STEP_SUMMARY unset) gets only the annotations. */
async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary.addRaw(markdown).write();
}

/**
 * Fails the job step. Its message is an annotation only when nothing before it was: after a failed step's annotation it
 * would say the same thing twice.
 */
export function failJob(message: string, annotated: boolean): void {
  if (!annotated) {
    core.setFailed(message);
    return;
  }
  process.exitCode = core.ExitCode.Failure;
  core.info(message);
}
