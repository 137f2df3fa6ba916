import { z } from 'zod';
import { Duration, EnvMap, StringList } from './common-schema.js';
import { OutcomeSchema, PipelineOutputSchema } from './deliverable-schema.js';
import { INPUT_SCHEMA_TYPES, IoTypeSchema } from './io-types.js';
import { RequiresSchema } from './requires-schema.js';
import { GateSchema } from './gate-schema.js';
import { EdgeSchema } from './graph-schema.js';

/** The contract types this version runs. */
export const CONTRACT_TYPES = ['json_schema', 'test_suite', 'non_empty_file', 'llm_judge', 'agent_review', 'test_diff', 'test_count_baseline'] as const;

export const ON_FAILURE = ['fail', 'warn', 'continue', 'skip', 'retry', 'rework', 'rejected'] as const;
import { FIDELITIES } from './fidelity.js';

export { FIDELITIES, type Fidelity } from './fidelity.js';

/** A JSON Schema written inline: a mapping, or its JSON text. */
const InlineJsonSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/** What an agent_review's reviewer is shown: the step's git diff, or an artifact of the run; each cut to max_size bytes (default 50 KB). */
const ReviewContextSchema = z.discriminatedUnion('source', [
  z.strictObject({
    source: z.literal('git_diff').describe("The step's changes, as git diff shows them."),
    diff_base: z.string().optional().describe('The ref the step branch is compared with; default the first of origin/main, origin/master, main, master.'),
    max_size: z.number().int().nonnegative().optional().describe('Bytes shown at most; 0 or unset: 50 KB.'),
  }),
  z.strictObject({
    source: z.literal('artifact').describe('An artifact saved earlier in this run.'),
    artifact: z.string().describe('The name of an artifact saved earlier in this run.'),
    max_size: z.number().int().nonnegative().optional().describe('Bytes shown at most; 0 or unset: 50 KB.'),
  }),
]);

export const ContractSchema = z
  .strictObject({
    type: z
      .enum(CONTRACT_TYPES)
      .describe(
        "json_schema (the file parses and matches a schema), test_suite (a command exits 0), non_empty_file, llm_judge (a model scores the output), agent_review (another persona reviews the work), test_diff (the step's uncommitted changes delete no more test declarations than they add) or test_count_baseline (the step's branch has no fewer test declarations than base_ref).",
      ),
    schema: InlineJsonSchema.optional().describe('json_schema: an inline JSON Schema (a mapping, or a JSON string).'),
    schema_path: z.string().optional().describe('json_schema: a JSON Schema file, relative to the manifest.'),
    source: z.string().optional().describe("The workspace file checked (json_schema, non_empty_file); default: the step's first output artifact."),
    validate: z.boolean().optional().describe('false switches the contract off (it stays in the file).'),
    command: z.string().optional().describe('test_suite: the shell command that must exit 0.'),
    dir: z.string().optional().describe('test_suite: workspace (default), project_root, or an absolute path.'),
    timeout: Duration.optional().describe('test_suite: how long the command may run; agent_review: how long the review may run (default 120s).'),
    must_pass: z.boolean().optional().describe("Wave's switch: false makes a failure only warn when on_failure is unset; default true."),
    on_failure: z
      .enum(ON_FAILURE)
      .optional()
      .describe(
        "fail (default), warn, continue, skip, retry, rework (a rework step fixes the step's work, then its contracts are checked again) or rejected (the run ends rejected: the step found nothing to do).",
      ),
    max_retries: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('With on_failure: retry, how many times the step is re-run for this contract before it fails (default 2); with rework, how many rework rounds (default 1).'),
    rework_step: z.string().optional().describe("With on_failure: rework, the `rework_only` step that fixes the work; default the step's retry.rework_step."),
    model: z.string().optional().describe('llm_judge, agent_review: the judging or reviewing model (a tier or a model name).'),
    adapter: z.string().optional().describe('llm_judge: the adapter that judges.'),
    criteria: StringList.optional().describe('llm_judge: what the output is scored against.'),
    threshold: z.number().min(0).max(1).optional().describe('llm_judge: the lowest passing score, from 0 to 1; default 0.7.'),
    persona: z.string().optional().describe("agent_review: the reviewer, a persona of the manifest other than the step's own."),
    criteria_path: z.string().optional().describe('agent_review: the file of review criteria, relative to the project root (required).'),
    context: z.array(ReviewContextSchema).optional().describe('agent_review: what the reviewer is shown besides the criteria, in order.'),
    token_budget: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('agent_review: the most tokens the review may use; a review over it fails the contract; 0 (default): no limit.'),
    max_test_deletions: z.number().int().nonnegative().optional().describe('test_diff, test_count_baseline: how many more test declarations may be removed than added; default 0.'),
    test_file_pattern: StringList.optional().describe(
      "test_diff, test_count_baseline: the test files (git pathspecs; globs matched against a file's path or name); default the manifest's project.test_file_pattern, else `*_test.go`.",
    ),
    test_func_pattern: z
      .string()
      .optional()
      .describe(
        "test_diff, test_count_baseline: a regular expression matching one test declaration per line; default the manifest's project.test_func_pattern, else Go's test functions.",
      ),
    base_ref: z.string().optional().describe("test_count_baseline: the commit the step's branch is compared with (`HEAD` is the branch); default HEAD~1."),
  })
  .describe("A check on a step's output.");

export const ArtifactSchema = z.strictObject({
  name: z.string().describe('The name later steps and pipeline_outputs use for it.'),
  path: z.string().optional().describe("Relative to the step's workspace; optional when source is stdout."),
  type: z.string().optional().describe('json, text, markdown, binary…'),
  required: z.boolean().optional().describe('true (default): the step fails when the file is missing; false: it is saved when present.'),
  source: z.enum(['file', 'stdout']).optional().describe("file (default): the file at path; stdout: the step's output."),
});

export const InjectArtifactSchema = z.strictObject({
  step: z.string().optional().describe('The earlier step that produced the artifact (or `pipeline`).'),
  pipeline: z.string().optional().describe("Another pipeline that produced it (or `step`): this run's parent, or one that ran before it in `wave compose`."),
  artifact: z.string().describe("The name of one of that step's (or pipeline's) output_artifacts or pipeline_outputs."),
  as: z.string().optional().describe("The file name in the consumer's workspace; default the artifact name."),
  type: z.string().optional().describe('json: the artifact must parse as JSON before the step runs.'),
  schema_path: z.string().optional().describe('A JSON Schema file (relative to the manifest) the artifact must match before the step runs.'),
  optional: z.boolean().optional().describe('true: the step runs without the artifact when it is missing; false (default): the step fails.'),
});

export const ExtractSchema = z
  .strictObject({
    schema: InlineJsonSchema.optional().describe('The JSON Schema the output must match, inline (a mapping, or a JSON string).'),
    schema_path: z.string().optional().describe('The JSON Schema the output must match, as a file relative to the manifest.'),
    adapter: z.string().optional().describe("The adapter asked for the JSON; default the manifest's extract.adapter."),
    model: z.string().optional().describe("The model asked for the JSON; default the manifest's extract.model."),
  })
  .describe("Turn the step's raw output into JSON matching a schema.");

export const RetrySchema = z.strictObject({
  policy: z
    .enum(['none', 'standard', 'aggressive', 'patient'])
    .optional()
    .describe("Wave's presets: none (1 attempt), standard (3, from 1s), aggressive (5, from 200ms), patient (3, from 5s); the other keys override them."),
  max_attempts: z.number().int().positive().optional().describe('Attempts in all, the first included; default 1 (no retry).'),
  backoff: z.enum(['fixed', 'linear', 'exponential']).optional().describe('How the wait between attempts grows from base_delay up to max_delay.'),
  base_delay: Duration.optional(),
  max_delay: Duration.optional(),
  adapt_prompt: z
    .boolean()
    .optional()
    .describe("true (default): a retry's prompt carries the previous failure; false: the original prompt. Contract retries always carry their errors."),
  continue_session: z
    .boolean()
    .optional()
    .describe(
      "true (default): an agent's retry continues the previous attempt's session (same adapter), sent only what failed; when the CLI cannot resume it, the retry starts fresh. false: every retry starts a fresh session with the whole prompt.",
    ),
  on_failure: z
    .enum(['fail', 'skip', 'continue', 'rework'])
    .optional()
    .describe(
      'When the attempts are spent: fail (default) fails the step and halts the run; skip records it skipped (dependents skipped, the run not failed); continue fails it and the run, but lets independent steps go on; rework runs `rework_step` to fix the work, then checks the contracts again.',
    ),
  rework_step: z.string().optional().describe('With on_failure: rework, the `rework_only` step run to fix the work once the attempts are spent.'),
});

/** A child pipeline step's `config`: what it hands the child and takes back (Wave's SubPipelineConfig). */
export const SubPipelineConfigSchema = z
  .strictObject({
    inject: StringList.optional().describe(
      "Artifacts of this run's earlier steps the child's steps read as `{{ artifacts.<name> }}` (each placed in the workspace of a child step that names it).",
    ),
    extract: StringList.optional().describe("The child's artifacts also kept in this run as `<child pipeline>.<name>`; a missing one fails the step."),
    max_cycles: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("The iteration limit of each of the child's loop steps that sets no `max_iterations` of its own (Wave's max_cycles)."),
    timeout: Duration.optional().describe("The whole child run's time limit (a duration: 30s, 10m, 1h); past it the child is stopped and the step fails with `timeout`."),
    env: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("Values the child's composition fields read as `{{ env.<key> }}` (a branch's `on`, a child's `input`)."),
  })
  .describe('What a child pipeline step hands its child and takes back.');

/** An iterate step's `iterate`: the items its child pipeline runs for, and how. */
export const IterateSchema = z
  .strictObject({
    over: z.string().describe('A JSON array, or a template resolving to one ({{ <step>.output }}, {{ <step>.out.<artifact>.<field> }}).'),
    mode: z.enum(['sequential', 'parallel']).optional().describe('sequential (default): one item after another; parallel: several at once.'),
    max_concurrent: z.number().int().optional().describe("parallel: children at once; 0 or less (default): every item, within the run's max_concurrency."),
    on_failure: z
      .enum(['fail', 'continue'])
      .optional()
      .describe("fail (default): the first failed item fails the step and stops the others; continue: a failed item's slot is null and the step fails only if every item failed."),
  })
  .describe(
    "Runs the step's `pipeline` once per item ({{ item }}, {{ item.<field> }}, {{ iteration }} in its name and input), collecting each child's output in item order as `collected-output`.",
  );

/** Wave's matrix strategy: the step once per item of a JSON list in a file, each run a worker of its own. */
export const MatrixStrategySchema = z
  .strictObject({
    type: z.literal('matrix').describe('Always matrix.'),
    items_source: z
      .string()
      .describe(
        "The JSON file of items: `<step>/<path>` reads an earlier step's artifact named <path> (else the file <path> in its workspace); any other path is relative to the project folder.",
      ),
    item_key: z.string().optional().describe('A dot path to the list inside the file (`plan.tasks`); absent: the file is the list.'),
    max_concurrency: z.number().int().optional().describe("Workers at once; 0 or less (default): every item, within the run's max_concurrency."),
  })
  .describe('Fan-out over a JSON list: each item runs the step as a child run in its own workspace, `{{ task }}` in its prompt or command being the item.');

/** An aggregate step's `aggregate`: one text made of earlier steps' outputs, saved as an artifact. */
export const AggregateSchema = z
  .strictObject({
    from: z.string().describe('The text to aggregate: a template, usually {{ <iterate step>.output }} or {{ <step>.out.<artifact> }}.'),
    into: z.string().describe("The artifact's file name (its name is the base name without extension: merged.json is `merged`), saved in the run's artifact store."),
    strategy: z
      .enum(['merge_arrays', 'concat', 'reduce'])
      .describe(
        'merge_arrays: a JSON array whose array elements are flattened one level (with `key`: the arrays under that key, concatenated); concat and reduce: the text as it is (as in Wave).',
      ),
    key: z.string().optional().describe('merge_arrays: every element is an object whose `key` holds an array; the result is those arrays, concatenated.'),
  })
  .describe("Wave's aggregate: one artifact made of earlier steps' outputs.");

/** The artifact an aggregate step writes: `into`'s base name without its extension (merged-findings.json is `merged-findings`). */
export function artifactNameOf(into: string): string {
  const base = into.split('/').at(-1)!;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** A branch step's `branch`: the value, and the child pipeline each value takes. */
export const BranchSchema = z
  .strictObject({
    on: z.string().describe('The value: a template ({{ env.<key> }}, {{ <step>.output.<field> }} …); a reference to nothing known stays as written.'),
    cases: z
      .record(z.string(), z.string())
      .describe('Value → the child pipeline to run, or `skip` (the step completes, running nothing); the `default` key is taken when no value matches.'),
  })
  .describe("Wave's branch: runs the child pipeline whose case the value names, with the step's `input`.");

/** A loop step's `loop`: its sub-steps, run as a graph of their own once per iteration, until `until` says so. */
export const LoopSchema = z
  .strictObject({
    max_iterations: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'How many iterations at most; the step completes when they are done, as in Wave. Required, unless the pipeline runs as a child whose parent step sets `config.max_cycles`.',
      ),
    until: z
      .string()
      .optional()
      .describe(
        "Read after each iteration: `true`, `done` or `yes` ends the loop. A template of this iteration's sub-steps' outputs ({{ <sub-step>.out.<artifact>.<field> }}), {{ iteration }} and the run's values.",
      ),
    steps: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .describe('The sub-steps: steps of any kind, depending on each other; each iteration runs them as a child run ({{ iteration }}, 0-based, in their templates).'),
  })
  .describe("Wave's loop: runs its sub-steps again and again, each iteration a child run of its own.");

export const StepSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'use letters, digits, _, . and -')
    .describe("The step's name, unique in the pipeline: letters, digits, _, . and -."),
  persona: z.string().optional().describe('A persona of the manifest: its adapter, system prompt and permissions run the prompt.'),
  adapter: z.string().optional().describe('An adapter of the manifest, for a prompt step without a persona.'),
  model: z
    .string()
    .optional()
    .describe("Overrides the persona's and the adapter's model: a model, or a tier (cheapest, balanced, strongest) resolved through the adapter's tier_models."),
  description: z.string().optional().describe('What the step does; information only.'),
  dependencies: StringList.optional().describe('Ids of the steps that must finish before this one starts.'),
  optional: z.boolean().optional().describe('A failure of this step does not fail the run.'),
  rework_only: z.boolean().optional().describe("true: the step runs only as another step's rework_step, when that step's work needs fixing; never in the run's own order."),
  timeout_minutes: z.number().positive().optional().describe('Time limit of one attempt; default runtime.timeouts.step_default_minutes.'),
  env: EnvMap.optional(),
  pipeline: z.string().optional().describe("A child pipeline run as this step's work: a name under pipelines/ or .agents/pipelines/, or a file."),
  input: z.string().optional().describe("The child pipeline's input ({{ input }}, {{ <step>.output }} and {{ <step>.out.<artifact> }} allowed); default this run's input."),
  config: SubPipelineConfigSchema.optional(),
  iterate: IterateSchema.optional(),
  aggregate: AggregateSchema.optional(),
  branch: BranchSchema.optional(),
  gate: GateSchema.optional(),
  loop: LoopSchema.optional(),
  type: z
    .enum(['command', 'gate', 'conditional', 'pipeline'])
    .optional()
    .describe(
      "Wave's step type: command makes a command step that runs `script`; conditional a step that only routes (its `edges`) on the outcome of the step before it; gate goes with `gate`, pipeline with `pipeline`.",
    ),
  edges: z.array(EdgeSchema).optional().describe('Graph routing: where the walk goes after this step, the first edge whose condition holds; a pipeline with edges may loop back.'),
  max_visits: z.number().int().nonnegative().optional().describe('How many times the step may run in one run (loops, gate choices that go back); 0 or unset: 10.'),
  script: z
    .string()
    .optional()
    .describe("Wave's command step: the shell script, run like `exec: { type: command, source: … }`, in the copy of a `./` mount when the step has one."),
  exec: z
    .strictObject({
      type: z.enum(['prompt', 'command']).optional().describe("prompt (default) goes to the persona's agent; command runs in a shell."),
      source: z.string().optional().describe('The prompt or shell command itself, with {{ … }} templates.'),
      source_path: z.string().optional().describe('A file holding the prompt or command, relative to the manifest.'),
    })
    .optional()
    .describe(
      'What the step runs: `source` (inline prompt or command) or `source_path` (a file, relative to the manifest); a command step may give `script` instead, a child pipeline step has none.',
    ),
  workspace: z
    .strictObject({
      type: z.enum(['directory', 'worktree']).optional().describe('directory (default): a fresh folder; worktree: a git worktree of the project.'),
      branch: z.string().optional().describe('worktree: the branch checked out (templated; steps naming the same branch share it); default wave/<run-id>/<step-id>.'),
      base: z.string().optional().describe('worktree: the branch or commit a new branch starts from; default HEAD.'),
      mount: z
        .array(
          z.strictObject({
            source: z.string().describe('A project path to copy in, relative to the project folder.'),
            target: z.string().optional().describe("Where the copy goes in the step's workspace; default the source's base name."),
            mode: z.enum(['readonly', 'readwrite']).optional().describe('readonly makes the copy unwritable and fails the step if it changes; readwrite (default) does not.'),
            subset_from: z
              .string()
              .optional()
              .describe(
                'Copy only the files listed in an artifact: `<step>.<artifact>.<json-path>`, the path leading to a JSON list of paths relative to source; entries leading out of source are skipped.',
              ),
          }),
        )
        .optional()
        .describe('Project paths copied into the workspace before the step runs.'),
    })
    .optional()
    .describe('Where the step runs: a fresh folder (default) or a git worktree, with optional copies of project paths.'),
  output_artifacts: z.array(ArtifactSchema).optional().describe('Files (or stdout) the step produces for later steps.'),
  memory: z
    .strictObject({
      strategy: z.string().optional().describe("Wave's memory strategy: only fresh (the default) is supported."),
      inject_artifacts: z.array(InjectArtifactSchema).optional().describe("Artifacts of earlier steps copied into this step's workspace."),
    })
    .optional()
    .describe('What the step receives from earlier steps.'),
  handover: z
    .strictObject({
      contract: ContractSchema.optional(),
      contracts: z.array(ContractSchema).optional().describe('Several checks, run in order.'),
    })
    .optional()
    .describe("Checks the step's output must pass before later steps run."),
  retry: RetrySchema.optional().describe('How failed attempts are retried.'),
  extract: ExtractSchema.optional(),
  outcomes: z.array(OutcomeSchema).optional().describe('Links and files the step produced, taken from its files once it succeeds.'),
  thread: z.string().min(1).optional().describe("A conversation thread: the step's prompt starts with the transcripts of the earlier steps of the same thread it depends on."),
  fidelity: z
    .enum(FIDELITIES)
    .optional()
    .describe('How much of the thread the step receives: full (default), compact (500 characters a step), summary (written by the model) or fresh (none).'),
  skills: StringList.optional().describe("Skills for this step's agent, added to the persona's and the pipeline's ({{ project.<key> }} allowed)."),
  max_concurrent_agents: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe("How many sub-agents the persona may run at once: above 1, its system prompt says so (Wave's concurrency hint)."),
  strategy: MatrixStrategySchema.optional(),
  concurrency: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'Above 1: the step runs as that many identical workers, each a child run in a workspace of its own (at most runtime.max_concurrency at once); their outputs are collected in order.',
    ),
});

export const PipelineSchema = z
  .strictObject({
    apiVersion: z.string().optional().describe('Format version; v1; information only.'),
    kind: z.literal('WavePipeline').describe('Always WavePipeline.'),
    metadata: z
      .strictObject({
        name: z.string().describe("The pipeline's name, shown in run records."),
        description: z.string().optional().describe('What the pipeline does; information only.'),
        release: z.boolean().optional().describe("Wave's release flag; information only."),
        category: z.string().optional().describe("Wave's grouping of pipelines; information only."),
        disabled: z.boolean().optional().describe('true switches the pipeline off: `wave run` refuses it, `wave validate` still checks it.'),
      })
      .describe("The pipeline's name and description."),
    input: z
      .strictObject({
        source: z.string().optional().describe('Where the input comes from: only cli (`--input`, `--input-file`) is supported.'),
        type: IoTypeSchema.optional().describe("What the input is: string (default, free text), issue_ref, pr_ref, … (Wave's I/O types); a run refuses an input of another shape."),
        schema: z
          .strictObject({
            type: z.enum(INPUT_SCHEMA_TYPES).optional().describe('string (default), or the JSON type the input must parse as: integer, number, boolean, object, array.'),
            description: z.string().optional().describe('What the input is; shown by `wave run <pipeline> --help`.'),
          })
          .optional()
          .describe('The JSON type the input must parse as, and its description.'),
        example: z.string().optional().describe('An example input, shown in help and in the hint when an input is refused.'),
        default: z.string().optional().describe('The input when none is given.'),
      })
      .optional()
      .describe("The pipeline's input ({{ input }} in templates): its type, example and default."),
    pipeline_outputs: z.record(z.string(), PipelineOutputSchema).optional().describe("Named outputs of the pipeline, taken from steps' artifacts after the run."),
    steps: z.array(StepSchema).min(1).describe('The steps, run as a dependency graph.'),
    max_step_visits: z.number().int().nonnegative().optional().describe('Graph routing: how many step runs one run may make in all; 0 or unset: 50.'),
    skills: StringList.optional().describe("Skills given to every agent step, added to its persona's ({{ project.<key> }} allowed)."),
    requires: RequiresSchema.optional(),
  })
  .describe('A pipeline: steps run as a dependency graph.');

export type Pipeline = z.infer<typeof PipelineSchema>;
export type Step = z.infer<typeof StepSchema>;
export type Contract = z.infer<typeof ContractSchema>;
/** One source of what an agent_review's reviewer is shown. */
export type ReviewContextSource = z.infer<typeof ReviewContextSchema>;
export type ArtifactDef = z.infer<typeof ArtifactSchema>;
export type InjectArtifact = z.infer<typeof InjectArtifactSchema>;
export type RetryConfig = z.infer<typeof RetrySchema>;
