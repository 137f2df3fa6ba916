import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { gateEnvironmentsOf } from '../../compile/gate-job.js';
import { compileGithubWorkflow, workflowEnvironments, workflowJobIds, workflowSecrets } from '../../compile/github-workflow.js';
import { DEFAULT_TRIGGERS, isTrigger, TRIGGERS, type Trigger } from '../../compile/triggers.js';
import { waveInstallOf } from '../../compile/wave-install.js';
import { writeWorkflowFile } from '../../compile/write-workflow.js';
import { writtenNotice } from '../../compile/written-notice.js';
import { safeText } from '../../core/terminal-safe.js';
import { findManifest, loadManifest, loadPipeline, resolvePipelinePath } from '../../config/load/load.js';
import { refuseDisabledPipeline } from '../../config/load/disabled-pipeline.js';
import { WaveError } from '../../core/errors/errors.js';
import { buildPlan } from '../../plan/plan.js';
import { configWarningsText } from '../../app/config-warnings.js';

interface CompileFlags {
  target: 'github-actions';
  output?: string;
  manifest?: string;
  onFailure: 'halt' | 'continue';
  force?: boolean;
  on?: Trigger[];
}

/** Collects `--on` values, repeated or comma-separated, refusing an event the workflow cannot start on. */
function collectTriggers(value: string, previous: Trigger[] | undefined): Trigger[] {
  const found = [...(previous ?? [])];
  for (const event of value.split(',').map((v) => v.trim())) {
    if (!isTrigger(event)) throw new InvalidArgumentError(`Allowed events are ${TRIGGERS.join(', ')} (repeat --on or separate them with commas).`);
    if (!found.includes(event)) found.push(event);
  }
  return found;
}

// The first line of every compiled workflow: a file starting with it may be compiled over.
const COMPILED_MARK = '# The Wave pipeline ';

/** `wave compile <pipeline> --target github-actions`: the pipeline as another engine's workflow. */
export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description('Compile a pipeline into a GitHub Actions workflow: one job per step, a final job that assembles the run record.')
    .argument('<pipeline>', 'pipeline file or name')
    .addOption(new Option('--target <engine>', 'the format to write').choices(['github-actions']).default('github-actions'))
    .option('-o, --output <file>', 'write the workflow here (default: stdout)')
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder)')
    .addOption(new Option('--on-failure <mode>', 'the failure mode every job runs with').choices(['halt', 'continue']).default('halt'))
    .option('--force', 'overwrite an output file that is not a compiled workflow')
    .option('--on <events>', `the events the workflow runs on, repeated or comma-separated: ${TRIGGERS.join(', ')} (default: ${DEFAULT_TRIGGERS.join(',')})`, collectTriggers)
    .action(async (pipelineArg: string, flags: CompileFlags) => {
      const cwd = process.cwd();
      const manifest = await loadManifest(findManifest(cwd, flags.manifest));
      const pipeline = await loadPipeline(resolvePipelinePath(pipelineArg, manifest.dir, cwd), manifest);
      refuseDisabledPipeline(pipeline);
      process.stderr.write(configWarningsText([manifest, pipeline]));
      const plan = buildPlan(manifest, pipeline, { input: pipeline.value.input?.default ?? '' });
      const repoRoot = repositoryRoot(manifest.dir);
      // Decided per project: `npm ci` where its lockfile lists Wave, else npx of this Wave's version.
      const install = waveInstallOf(repoRoot);
      const triggers = flags.on ?? DEFAULT_TRIGGERS;
      const gateEnvironments = gateEnvironmentsOf(pipeline.value);
      const workflow = compileGithubWorkflow(plan, {
        repoRoot,
        onFailure: flags.onFailure,
        locatePassthrough: (index) => manifest.locate(['runtime', 'sandbox', 'env_passthrough', index]),
        locatePipeline: (path) => pipeline.locate(path),
        install,
        triggers,
        gateEnvironments,
      });
      if (!flags.output) {
        process.stdout.write(workflow);
        return;
      }
      const file = resolve(cwd, flags.output);
      refuseForeignFile(file, flags.force ?? false);
      writeWorkflowFile(file, workflow);
      const shown = relative(cwd, file).startsWith('..') ? file : relative(cwd, file);
      process.stderr.write(
        safeText(
          writtenNotice({
            file: shown,
            jobIds: workflowJobIds(plan),
            install,
            triggers,
            secrets: workflowSecrets(plan),
            environments: workflowEnvironments(plan, { gateEnvironments }),
          }),
        ),
      );
    });
}

/** The nearest folder holding `.git` from the manifest's folder upwards (what actions/checkout checks out), else the manifest's folder. */
function repositoryRoot(manifestDir: string): string {
  for (let dir = manifestDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return manifestDir;
  }
}

/** An existing file is overwritten only when an earlier `wave compile` wrote it, or with --force. */
function refuseForeignFile(file: string, force: boolean): void {
  if (force || !existsSync(file)) return;
  let head = '';
  try {
    head = readFileSync(file, 'utf8').slice(0, COMPILED_MARK.length);
  } catch {
    // Unreadable: treated as foreign.
  }
  if (head !== COMPILED_MARK) {
    throw new WaveError('file_exists', `${file} exists and was not written by \`wave compile\``, {
      location: { file },
      hint: 'Choose another -o file, or pass --force to overwrite it.',
    });
  }
}
