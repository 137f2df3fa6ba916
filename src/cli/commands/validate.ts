import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { withForgePersonas } from '../../config/load/forge-personas.js';
import { builtinManifest, builtinManifestView } from '../../config/load/builtin-manifest.js';
import {
  listPipelineFiles,
  located,
  manifestFileOf,
  noManifestError,
  readManifest,
  readPipeline,
  resolvePipelinePath,
  validationView,
  type Located,
  type ManifestView,
} from '../../config/load/load.js';
import type { Manifest } from '../../config/schema/manifest-schema.js';
import type { Pipeline } from '../../config/schema/pipeline-schema.js';
import { WaveError, WaveErrors, formatError } from '../../core/errors/errors.js';
import { buildPlan } from '../../plan/plan.js';
import { worktreeWarnings } from '../../engine/workspace/worktree-preflight.js';
import { resolveSandboxPolicy } from '../../plan/sandbox-policy.js';
import { EXIT, exitCodeOfAll } from '../../core/errors/exit-codes.js';
import { refreshSchemaCopies } from '../schema-reference.js';

interface ValidateFlags {
  manifest?: string;
  json?: boolean;
  strict?: boolean;
}

/** One checked file and its problems. */
interface FileReport {
  file: string;
  errors: WaveError[];
  /** What loads but is reported: a setting nothing in a run here uses. */
  warnings: WaveError[];
  /** A pipeline with `metadata.disabled: true`: still checked, listed as disabled (`wave run` refuses it). */
  disabled?: boolean;
}

/** `wave validate [pipeline...]`: checks the manifest and pipelines, reporting every problem at once. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Check the manifest and pipelines; print every problem with its line and column.')
    .argument('[pipelines...]', 'pipeline files or names (default: every file in pipelines/ and .agents/pipelines/)')
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder)')
    .option('--json', 'print the problems as a JSON array, each with its severity (empty when there are none)')
    .option('--strict', 'treat warnings as errors (exit 2)')
    .action(async (pipelines: string[], flags: ValidateFlags) => {
      const found = await validateProject(pipelines, flags.manifest, process.cwd());
      refreshSchemaCopies(found.map((report) => resolve(process.cwd(), report.file)));
      const reports = flags.strict ? found.map(warningsAsErrors) : found;
      process.stdout.write(flags.json ? jsonReport(reports) : textReport(reports));
      // Warnings made errors by --strict are problems of the files (exit 2), whatever code a run would fail with.
      const onlyWarnings = found.every((r) => r.errors.length === 0);
      if (reports.some((r) => r.errors.length > 0)) process.exitCode = onlyWarnings ? EXIT.invalidInput : exitCodeOfAll(reports.flatMap((r) => r.errors.map((e) => e.code)));
      else await warnUnusableSandbox(flags.manifest, process.cwd());
    });
}

/** Checks the manifest, then each named pipeline (or every pipeline of the project). */
export async function validateProject(pipelines: readonly string[], manifestArg: string | undefined, cwd: string): Promise<FileReport[]> {
  const shown = (path: string) => displayPath(path, cwd);
  let manifestPath: string | undefined;
  try {
    manifestPath = manifestFileOf(cwd, manifestArg);
  } catch (error) {
    return [{ file: manifestArg ?? 'wave.yaml', errors: [asWaveError(error)], warnings: [] }];
  }
  // Without a wave.yaml, pipelines are checked against the built-in manifest (commands only), rooted here.
  const manifest = manifestPath === undefined ? undefined : await readManifest(shown(manifestPath));
  const view = manifest ? await validationView(manifest) : builtinManifestView(cwd);
  const reports: FileReport[] = manifest ? [{ file: manifest.file, errors: manifest.errors, warnings: manifest.warnings }] : [];
  const targets: Array<{ file: string } | { arg: string; error: WaveError }> = [];
  if (pipelines.length === 0) targets.push(...listPipelineFiles(view.dir).map((file) => ({ file })));
  for (const arg of pipelines) {
    try {
      targets.push({ file: resolvePipelinePath(arg, view.dir, cwd) });
    } catch (error) {
      targets.push({ arg, error: asWaveError(error) });
    }
  }
  // Nothing to check and no manifest: most likely the wrong folder, said as before.
  if (!manifest && targets.length === 0) return [{ file: 'wave.yaml', errors: [noManifestError(cwd)], warnings: [] }];
  const planned = manifest ? (manifest.errors.length === 0 ? located(manifest) : undefined) : builtinManifest(cwd);
  for (const target of targets) {
    if ('error' in target) {
      reports.push({ file: target.arg, errors: [target.error], warnings: [] });
      continue;
    }
    const read = await readPipeline(shown(target.file), view);
    const errors = read.errors.length === 0 && planned ? planProblems(planned, forOneForge(located(read), view)) : read.errors;
    const worktrees = read.value && read.locator ? await worktreeWarnings(read.value.steps, read.locator.locate, view.dir) : [];
    reports.push({ file: read.file, errors, warnings: [...read.warnings, ...worktrees], ...(read.value?.metadata.disabled === true ? { disabled: true } : {}) });
  }
  return reports;
}

/** A valid manifest may still name a backend this machine cannot run: said on stderr, the files stay valid. */
async function warnUnusableSandbox(manifestArg: string | undefined, cwd: string): Promise<void> {
  const file = manifestFileOf(cwd, manifestArg);
  if (file === undefined) return;
  const manifest = await readManifest(file);
  const policy = resolveSandboxPolicy(manifest.value?.runtime);
  if (policy.backend === 'none') return;
  const { backendStatus } = await import('../../sandbox/backend-status.js');
  const status = await backendStatus(policy, policy.backend);
  const notes = status.usable
    ? status.warnings
    : [`runtime.sandbox.backend ${policy.backend} cannot run on this machine: ${status.problem}${status.hint ? `\n  hint: ${status.hint}` : ''}`];
  for (const note of notes) process.stderr.write(`warning: ${note}\n`);
}

/** The pipeline planned with its persona names resolved for one forge they may resolve to (all of them were checked). */
function forOneForge(pipeline: Located<Pipeline>, view: ManifestView): Located<Pipeline> {
  const forge = view.forge;
  const type = forge?.types[0];
  if (!forge || !type) return pipeline;
  const info = { ...forge.info, type };
  return { ...pipeline, value: withForgePersonas(pipeline.value, info), forge: info };
}

/** What only planning finds (unknown template variables), for a pipeline whose format is valid. */
function planProblems(manifest: Located<Manifest>, pipeline: Located<Pipeline>): WaveError[] {
  try {
    buildPlan(manifest, pipeline, { input: '' });
    return [];
  } catch (error) {
    if (error instanceof WaveErrors) return error.errors;
    return [asWaveError(error)];
  }
}

function asWaveError(error: unknown): WaveError {
  if (error instanceof WaveError) return error;
  throw error;
}

/** A path relative to the working directory when it lies below it, else absolute. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Under --strict a warning stops the file like any other problem. */
function warningsAsErrors(report: FileReport): FileReport {
  return { ...report, errors: [...report.errors, ...report.warnings], warnings: [] };
}

function textReport(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    if (report.errors.length === 0) lines.push(`✓ ${report.file}${report.disabled ? ' (disabled: wave run refuses it)' : ''}`);
    else lines.push(`✗ ${report.file}`, ...report.errors.map((e) => formatError(e)));
    lines.push(...report.warnings.map((w) => `warning: ${formatError(w)}`));
  }
  const problems = reports.reduce((n, r) => n + r.errors.length, 0);
  const warnings = reports.reduce((n, r) => n + r.warnings.length, 0);
  const failed = reports.filter((r) => r.errors.length > 0).length;
  const files = `${reports.length} file${reports.length === 1 ? '' : 's'}`;
  const warned = warnings === 0 ? '' : `, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  lines.push(problems === 0 ? `${files} valid${warned}` : `${problems} problem${problems === 1 ? '' : 's'} in ${failed} of ${files}${warned}`);
  return `${lines.join('\n')}\n`;
}

function jsonReport(reports: FileReport[]): string {
  const entry = (r: FileReport, severity: 'error' | 'warning') => (e: WaveError) => ({ ...e.toJSON(), severity, file: e.location?.file ?? r.file });
  return `${JSON.stringify(
    reports.flatMap((r) => [...r.errors.map(entry(r, 'error')), ...r.warnings.map(entry(r, 'warning'))]),
    null,
    2,
  )}\n`;
}
