import { resolve } from 'node:path';
import type { Command } from 'commander';
import { problemsOf, validateProject, type FileReport } from '../../app/validate-project.js';
import { manifestFileOf, readManifest } from '../../config/load/load.js';
import { formatError } from '../../core/errors/errors.js';
import { resolveSandboxPolicy } from '../../plan/sandbox-policy.js';
import { EXIT, exitCodeOfAll } from '../../core/errors/exit-codes.js';
import { refreshSchemaCopies } from '../schema-reference.js';

interface ValidateFlags {
  manifest?: string;
  json?: boolean;
  strict?: boolean;
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
  return `${JSON.stringify(reports.flatMap(problemsOf), null, 2)}\n`;
}
