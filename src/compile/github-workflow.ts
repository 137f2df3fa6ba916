import { relative, sep } from 'node:path';
import { Document, isScalar, visit } from 'yaml';
import { contractPolicy } from '../contracts/policy.js';
import { WaveError, type SourceLocation } from '../core/errors/errors.js';
import { isAttemptStep, isReworkOnly, type AttemptStep, type GateStep, type Plan } from '../plan/plan-types.js';
import { slugPipelineName } from '../state/run-id.js';
import { gateEnvironmentName, needsEnvironment, refuseUncompilableGate } from './gate-job.js';
import { jobCondition } from './job-condition.js';
import { jobIdsOf } from './job-ids.js';
import { jobTimeoutMinutes } from './job-timeout.js';
import { ACTION_PINS, pinnedVersion } from './action-pins.js';
import { agentInstallSteps, setupSteps } from './job-setup.js';
import { stepSecrets } from './job-secrets.js';
import { DEFAULT_TRIGGERS, inputVariables, inputWord, workflowOn, type Trigger } from './triggers.js';
import { waveCommand, waveInstallOf, type WaveInstall } from './wave-install.js';
import { commentText, refuseExpressionOpen, unevaluated } from './workflow-text.js';

/** The id of the job that assembles the run record (a step of that name gets another). */
export const ASSEMBLE_JOB = 'run-record';

/** The prefix of the artifact each step job uploads: its part of the run folder. */
export const PART_ARTIFACT_PREFIX = 'wave-part-';

/** The artifact the final job uploads: the assembled run folder. */
export const RUN_ARTIFACT = 'wave-run';

// A secret's name: GitHub refuses others, and names starting with GITHUB_.
const SECRET_NAME = /^(?!GITHUB_)[A-Za-z_][A-Za-z0-9_]*$/i;

export interface GithubWorkflowOptions {
  /** The repository's root folder (where the workflow checks the code out); paths in the workflow are relative to it. */
  repoRoot: string;
  /** What the run does about a failed step, passed to every `wave` command. */
  onFailure: 'halt' | 'continue';
  /** Where `runtime.sandbox.env_passthrough[index]` is written, for errors. */
  locatePassthrough?: (index: number) => SourceLocation;
  /** Where a key of the pipeline (such as ['metadata', 'name']) is written, for errors. */
  locatePipeline?: (path: readonly PropertyKey[]) => SourceLocation;
  /** How the jobs get Wave (default: as the repository at repoRoot allows, see waveInstallOf). */
  install?: WaveInstall;
  /** The events the workflow starts on (default: DEFAULT_TRIGGERS). */
  triggers?: readonly Trigger[];
  /** The `gate.environment` of each approval gate that names its GitHub Environment, by step id (see gateEnvironmentsOf). */
  gateEnvironments?: ReadonlyMap<string, string>;
}

/** What every job's `wave` command is given: the failure mode, how Wave is run and how the input arrives. */
interface WaveCall {
  onFailure: 'halt' | 'continue';
  command: string;
  inputWord: string;
}

type Job = Record<string, unknown>;

/** A GitHub Actions workflow running `plan` with one job per step and a final job that assembles the run record, as YAML text. */
export function compileGithubWorkflow(plan: Plan, options: GithubWorkflowOptions): string {
  const workflow = new Document(githubWorkflow(plan, options), { aliasDuplicateObjects: false });
  // Each pinned action says which release its commit is.
  visit(workflow, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === 'uses' && isScalar(pair.value)) {
        const version = pinnedVersion(String(pair.value.value));
        if (version) pair.value.comment = ` ${version}`;
      }
    },
  });
  const source = repoPath(options.repoRoot, plan.pipelineFile);
  return `# The Wave pipeline ${commentText(source)} as a GitHub Actions workflow (\`wave compile\`); compile it again after changing the pipeline or manifest.\n${workflow.toString({ lineWidth: 0 })}`;
}

/** The workflow of compileGithubWorkflow as a plain object. */
export function githubWorkflow(whole: Plan, options: GithubWorkflowOptions): Record<string, unknown> {
  const plan = compilablePlan(whole);
  refuseUnescapable(plan, options);
  const secrets = passthroughSecrets(plan, options);
  const triggers = options.triggers ?? DEFAULT_TRIGGERS;
  const install = options.install ?? waveInstallOf(options.repoRoot);
  const call: WaveCall = { onFailure: options.onFailure, command: waveCommand(install), inputWord: inputWord(triggers) };
  const jobIds = stepJobIds(plan);
  const slug = slugPipelineName(plan.pipelineName);
  const runsDir = `${unevaluated(repoPath(options.repoRoot, plan.runtime.runsRoot))}/\${{ env.WAVE_RUN_ID }}`;
  const files = waveFiles(plan, options);
  const jobs: Record<string, Job> = {};
  const mayFail = new Map(plan.steps.map((s) => [s.id, s.optional || (isAttemptStep(s) && s.contracts.some((c) => contractPolicy(c) === 'continue'))]));
  const environments = jobEnvironments(plan, options);
  for (const step of plan.steps) {
    const jobId = jobIds.get(step.id)!;
    const condition = jobCondition(step.dependencies.map((d) => ({ jobId: jobIds.get(d)!, mayFail: mayFail.get(d)! })));
    const ancestors = ancestorJobs(plan, step.id).map((id) => jobIds.get(id)!);
    // A gate runs no command of the pipeline's, so its job gets no secret.
    const env = { ...files, ...(isAttemptStep(step) && secretVariables(stepSecrets(plan, step, secrets))) };
    const place = { jobId, needs: step.dependencies.map((d) => jobIds.get(d)!), condition, ancestors, environment: environments.get(step.id) };
    jobs[jobId] = stepJob(step, place, { runsDir, env, install, call });
  }
  jobs[ASSEMBLE_JOB] = assembleJob([...jobIds.values()], { runsDir, env: files, install, call });
  const read = workflowSecrets(plan);
  const input = { description: 'The input, {{ input }} in templates.', type: 'string', required: false, default: plan.input };
  const callOutputs = {
    'run-id': { description: 'The id of the Wave run.', value: `\${{ jobs.${ASSEMBLE_JOB}.outputs.run-id }}` },
    status: { description: 'completed, failed or cancelled.', value: `\${{ jobs.${ASSEMBLE_JOB}.outputs.status }}` },
  };
  return {
    name: `wave ${plan.pipelineName}`,
    on: workflowOn(triggers, {
      input,
      callOutputs,
      ...(read.length && { callSecrets: Object.fromEntries(read.map((name) => [name, { required: false }])) }),
    }),
    permissions: { contents: 'read' },
    // One run of a pipeline per ref at a time; a new one waits instead of cancelling the running one.
    concurrency: { group: `wave-${slug}-\${{ github.ref }}`, 'cancel-in-progress': false },
    env: { WAVE_RUN_ID: `${slug}-gh-\${{ github.run_id }}-\${{ github.run_attempt }}`, ...inputVariables(triggers, plan.input) },
    jobs,
  };
}

/** The job id of each step, none of them the run record's. */
function stepJobIds(plan: Plan): Map<string, string> {
  return jobIdsOf(
    plan.steps.map((s) => s.id),
    [ASSEMBLE_JOB],
  );
}

/** The ids of the jobs of the workflow of `plan`, in order: one per step, then the run record's. */
export function workflowJobIds(plan: Plan): string[] {
  return [...stepJobIds(plan).values(), ASSEMBLE_JOB];
}

/** The secrets some job of the workflow of `plan` reads (of its env_passthrough), which the repository must define. */
export function workflowSecrets(whole: Plan): string[] {
  const plan = compilablePlan(whole);
  const read = new Set(plan.steps.filter(isAttemptStep).flatMap((step) => stepSecrets(whole, step, plan.runtime.envPassthrough)));
  return plan.runtime.envPassthrough.filter((name) => read.has(name));
}

/** The GitHub Environments the workflow of `plan` binds its approval gates' jobs to, which the repository must create with required reviewers. */
export function workflowEnvironments(whole: Plan, options: Pick<GithubWorkflowOptions, 'gateEnvironments'> = {}): string[] {
  return [...new Set(jobEnvironments(compilablePlan(whole), options).values())];
}

/** The Environment of each approval gate's job that waits for a reviewer, by step id. */
function jobEnvironments(plan: CompilablePlan, options: Pick<GithubWorkflowOptions, 'gateEnvironments'>): Map<string, string> {
  const gates = plan.steps.filter((step): step is GateStep => step.kind === 'gate' && needsEnvironment(step));
  return new Map(gates.map((step) => [step.id, gateEnvironmentName(plan.pipelineName, step.id, options.gateEnvironments?.get(step.id))]));
}

/** Where a step's job sits among the others: its id, the jobs it needs, its `if:`, the jobs whose parts it downloads, and the Environment it waits for. */
interface JobPlace {
  jobId: string;
  needs: string[];
  condition: string | undefined;
  ancestors: string[];
  /** An approval gate's: GitHub runs the job once a required reviewer of this Environment approves it. */
  environment: string | undefined;
}

/** What a job's steps are made of: the run folder, the environment of its `wave` step, how Wave is installed and called. */
interface JobMaking {
  runsDir: string;
  env: Record<string, string>;
  install: WaveInstall;
  call: WaveCall;
}

/** The final job: downloads every part, assembles the run record and uploads it; it gets no secret. */
function assembleJob(stepJobIds: string[], { runsDir, env, install, call }: JobMaking): Job {
  return {
    name: 'run record',
    needs: stepJobIds,
    if: 'always()',
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': 15,
    outputs: { 'run-id': '${{ steps.assemble.outputs.run-id }}', status: '${{ steps.assemble.outputs.status }}' },
    steps: [
      ...setupSteps(install),
      { name: 'Download every part', uses: ACTION_PINS.downloadArtifact.uses, with: { pattern: `${PART_ARTIFACT_PREFIX}*`, 'merge-multiple': true, path: runsDir } },
      { name: 'Assemble the run record', id: 'assemble', env, run: `${call.command} assemble ${waveArgs(call)}` },
      {
        name: 'Upload the run record',
        if: 'always()',
        uses: ACTION_PINS.uploadArtifact.uses,
        with: { name: RUN_ARTIFACT, path: runsDir, 'include-hidden-files': true, 'if-no-files-found': 'warn', overwrite: true },
      },
    ],
  };
}

/**
 * The job that runs one step with `wave run --steps` and uploads its part of the run folder. An approval gate's job is
 * bound to its Environment: once a reviewer approves, `--approved-in` records the gate's default choice as theirs.
 */
function stepJob(step: CompiledStep, place: JobPlace, { runsDir, env, install, call }: JobMaking): Job {
  // Step ids are letters, digits, `_`, `.` and `-` (the pipeline schema), so they hold no `${{` and no shell syntax.
  // The Environment's name reaches the command through env, as the file names do.
  const approved = place.environment !== undefined ? ' --approved-in "$WAVE_GATE_ENVIRONMENT"' : '';
  const stepEnv = place.environment !== undefined ? { ...env, WAVE_GATE_ENVIRONMENT: unevaluated(place.environment) } : env;
  return {
    name: step.id,
    ...(place.needs.length && { needs: place.needs }),
    ...(place.condition && { if: place.condition }),
    ...(place.environment !== undefined && { environment: unevaluated(place.environment) }),
    'runs-on': 'ubuntu-latest',
    'timeout-minutes': jobTimeoutMinutes(step),
    steps: [
      ...setupSteps(install),
      ...(isAttemptStep(step) ? agentInstallSteps(step, install) : []),
      ...(place.ancestors.length ? [downloadParts(place.ancestors, runsDir)] : []),
      {
        name: `Run step ${step.id}${place.environment !== undefined ? `, approved through the GitHub Environment ${unevaluated(place.environment)}` : ''}`,
        env: stepEnv,
        run: `${call.command} run ${waveArgs(call)} --steps ${step.id}${approved} --output text`,
      },
      {
        name: `Upload the part of ${step.id}`,
        // A failed step's part is what tells the final job it failed.
        if: 'always()',
        uses: ACTION_PINS.uploadArtifact.uses,
        with: {
          name: `${PART_ARTIFACT_PREFIX}${place.jobId}`,
          path: [`parts/${step.id}.json`, `steps/${step.id}/`, `artifacts/${step.id}/`].map((p) => `${runsDir}/${p}`).join('\n'),
          // The run folder lives under .wave/, which upload-artifact leaves out by default.
          'include-hidden-files': true,
          'if-no-files-found': 'warn',
          // Re-running failed jobs uploads again under a name the first attempt already used.
          overwrite: true,
        },
      },
    ],
  };
}

/** A step one job runs: its attempts, or its gate. */
type CompiledStep = AttemptStep | GateStep;

/** A plan whose every step one job runs. */
type CompilablePlan = Omit<Plan, 'steps'> & { readonly steps: readonly CompiledStep[] };

/** The plan with every step one job can run; a child pipeline's step, and a gate no job can express, are refused by name. */
function compilablePlan(plan: Plan): CompilablePlan {
  const routed = plan.steps.find((step) => step.edges?.length || step.kind === 'conditional');
  if (routed)
    throw new WaveError('not_supported', `step \`${routed.id}\` routes the run by edges (graph mode), which \`wave compile\` does not turn into jobs yet`, {
      location: routed.location,
      hint: 'Run this pipeline with `wave run` or the Wave GitHub Action, where one job runs it whole.',
    });
  const child = plan.steps.find((step) => !isAttemptStep(step) && step.kind !== 'gate');
  if (child)
    throw new WaveError(
      'not_supported',
      `step \`${child.id}\` ${child.kind === 'loop' ? 'is a loop' : 'runs a child pipeline'}, which \`wave compile\` does not turn into jobs yet`,
      {
        location: child.location,
        hint:
          child.kind === 'loop'
            ? 'Run this pipeline with `wave run` or the Wave GitHub Action (one job runs it whole, its loop included).'
            : 'Run this pipeline with `wave run` or the Wave GitHub Action (one job runs it whole), or compile the child pipeline on its own.',
      },
    );
  const rework = plan.steps.find(isReworkOnly);
  if (rework)
    throw new WaveError(
      'not_supported',
      `step \`${rework.id}\` is a rework step, which \`wave compile\` does not turn into jobs yet: it runs inside the job of the step it fixes`,
      {
        location: rework.location,
        hint: 'Run this pipeline with `wave run` or the Wave GitHub Action (one job runs it whole).',
      },
    );
  for (const step of plan.steps) if (step.kind === 'gate') refuseUncompilableGate(step);
  const consumer = plan.steps.filter(isAttemptStep).find((step) => step.injectArtifacts.some((ref) => ref.pipeline !== undefined));
  if (consumer)
    throw new WaveError('not_supported', `step \`${consumer.id}\` injects an artifact of another pipeline, which only its parent run or \`wave compose\` hands over`, {
      location: consumer.location,
      hint: 'Run it from the pipeline that starts it, or with `wave compose`, in one job (the Wave GitHub Action runs a pipeline whole).',
    });
  return plan as CompilablePlan;
}

/** Refuses the pipeline values that land where GitHub allows no expression, so that an escaped `${{` cannot be written there either. */
function refuseUnescapable(plan: Plan, options: GithubWorkflowOptions): void {
  const locate = (path: readonly PropertyKey[]) => options.locatePipeline?.(path) ?? { file: plan.pipelineFile };
  refuseExpressionOpen(plan.pipelineName, '`metadata.name`', locate(['metadata', 'name']));
  refuseExpressionOpen(plan.input, 'the input default', locate(['input', 'default']));
}

/** Brings the parts of the steps before this one into the run folder (a pattern, so an optional step that left none is no error). */
function downloadParts(jobIds: readonly string[], runsDir: string): Job {
  const names = jobIds.length === 1 ? jobIds[0]! : `{${jobIds.join(',')}}`;
  return {
    name: 'Download the parts of the steps before',
    uses: ACTION_PINS.downloadArtifact.uses,
    with: { pattern: `${PART_ARTIFACT_PREFIX}${names}`, 'merge-multiple': true, path: runsDir },
  };
}

/** The arguments every job gives `wave run` and `wave assemble`: the pipeline, manifest, run id, input and failure mode, all from the environment. */
function waveArgs(call: WaveCall): string {
  return `"$WAVE_PIPELINE_FILE" -m "$WAVE_MANIFEST_FILE" --run-id "$WAVE_RUN_ID" --input ${call.inputWord} --on-failure ${call.onFailure}`;
}

/** The file names a step running `wave` gets (which a repository chooses): through env, never spliced into its script. */
function waveFiles(plan: Plan, options: GithubWorkflowOptions): Record<string, string> {
  return {
    WAVE_PIPELINE_FILE: unevaluated(repoPath(options.repoRoot, plan.pipelineFile)),
    WAVE_MANIFEST_FILE: unevaluated(repoPath(options.repoRoot, plan.manifestFile)),
  };
}

/** Each secret as the variable of the same name. */
function secretVariables(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `\${{ secrets.${name} }}`]));
}

/** Every step `id` depends on, directly or not, in plan order. */
function ancestorJobs(plan: Plan, id: string): string[] {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const found = new Set<string>();
  const visit = (stepId: string) => {
    for (const dep of byId.get(stepId)!.dependencies) {
      if (!found.has(dep)) {
        found.add(dep);
        visit(dep);
      }
    }
  };
  visit(id);
  return plan.steps.map((s) => s.id).filter((s) => found.has(s));
}

/** The manifest's env_passthrough names, each of which becomes a secret of the same name. */
function passthroughSecrets(plan: Plan, options: GithubWorkflowOptions): string[] {
  plan.runtime.envPassthrough.forEach((name, index) => {
    if (!SECRET_NAME.test(name)) {
      throw new WaveError('wrong_type', `env_passthrough \`${name}\` cannot be a GitHub secret's name`, {
        location: options.locatePassthrough?.(index) ?? { file: plan.manifestFile },
        hint: 'GitHub secrets are named with letters, digits and `_`, not starting with a digit or GITHUB_; rename the variable.',
      });
    }
  });
  return [...plan.runtime.envPassthrough];
}

/** `path` relative to the repository root, with `/`; a file outside it is refused. */
function repoPath(repoRoot: string, path: string): string {
  const rel = relative(repoRoot, path);
  if (rel.startsWith('..') || rel === '') {
    throw new WaveError('invalid_argument', `${path} is outside the repository ${repoRoot}`, {
      hint: 'Compile a pipeline and manifest that live in the repository the workflow checks out.',
    });
  }
  return rel.split(sep).join('/');
}
