import { dirname, resolve } from 'node:path';
import { problemsOf, validateProject, type ValidationProblem } from '../app/validate-project.js';
import { withApiErrors } from './wave-problems.js';

/** One checked file: the manifest or a pipeline. */
export interface ValidatedFile {
  /** As `wave validate` shows it: relative to the process's working folder when it lies below it, else absolute. */
  file: string;
  /** Its errors, then its warnings. */
  problems: ValidationProblem[];
  /** A pipeline with `metadata.disabled: true` (`wave run` refuses it). */
  disabled?: boolean;
}

/** What `validate` found: every problem, located, with its code and hint, exactly as `wave validate --json` prints them. */
export interface ValidationReport {
  /** No file has an error (warnings allowed). */
  valid: boolean;
  files: ValidatedFile[];
  /** Every file's problems, in file order. */
  problems: ValidationProblem[];
}

/** What `validate` checks besides its target. */
export interface ValidateOptions {
  /** The manifest file (default: wave.yaml in the project folder or a parent folder). */
  manifest?: string;
}

/**
 * Checks a project as `wave validate` does, printing nothing: `target` is a project folder (its manifest and every
 * pipeline) or a list of pipeline files (with the manifest found from the first one's folder up).
 */
export async function validate(target: string | readonly string[], options: ValidateOptions = {}): Promise<ValidationReport> {
  const files = typeof target === 'string' ? [] : target.map((file) => resolve(file));
  const cwd = typeof target === 'string' ? resolve(target) : dirname(files[0] ?? '.');
  const reports = await withApiErrors(() => validateProject(files, options.manifest, cwd));
  const checked = reports.map((report) => ({ file: report.file, problems: problemsOf(report), ...(report.disabled ? { disabled: true } : {}) }));
  return { valid: reports.every((report) => report.errors.length === 0), files: checked, problems: checked.flatMap((file) => file.problems) };
}
