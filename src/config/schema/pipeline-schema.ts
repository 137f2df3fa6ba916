import { z } from 'zod';
import { Duration, EnvMap, StringList } from './common-schema.js';
import { OutcomeSchema, PipelineOutputSchema } from './deliverable-schema.js';
import { INPUT_SCHEMA_TYPES, IoTypeSchema } from './io-types.js';
import { RequiresSchema } from './requires-schema.js';

export const ON_FAILURE = ['fail', 'warn', 'continue', 'skip', 'retry'] as const;
export const FIDELITIES = ['full', 'compact', 'summary', 'fresh'] as const;
export type Fidelity = (typeof FIDELITIES)[number];

export const ContractSchema = z
  .strictObject({
    type: z.enum(['json_schema', 'test_suite', 'non_empty_file', 'llm_judge']),
    schema: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe('json_schema: an inline JSON Schema (a mapping, or a JSON string).'),
    schema_path: z.string().optional().describe('json_schema: a JSON Schema file, relative to the manifest.'),
    source: z.string().optional().describe("The workspace file checked (json_schema, non_empty_file); default: the step's first output artifact."),
    validate: z.boolean().optional().describe('false switches the contract off (it stays in the file).'),
    command: z.string().optional().describe('test_suite: the shell command that must exit 0.'),
    dir: z.string().optional().describe('test_suite: workspace (default), project_root, or an absolute path.'),
    timeout: Duration.optional(),
    must_pass: z.boolean().optional(),
    on_failure: z.enum(ON_FAILURE).optional().describe('fail (default), warn, continue, skip or retry.'),
    max_retries: z.number().int().nonnegative().optional(),
    model: z.string().optional().describe('llm_judge: the judging model.'),
    adapter: z.string().optional().describe('llm_judge: the adapter that judges.'),
    criteria: StringList.optional(),
    threshold: z.number().min(0).max(1).optional(),
  })
  .describe("A check on a step's output.");

export const ArtifactSchema = z.strictObject({
  name: z.string(),
  path: z.string().optional().describe("Relative to the step's workspace; optional when source is stdout."),
  type: z.string().optional().describe('json, text, markdown, binary…'),
  required: z.boolean().optional(),
  source: z.enum(['file', 'stdout']).optional(),
});

export const InjectArtifactSchema = z.strictObject({
  step: z.string(),
  artifact: z.string(),
  as: z.string().optional().describe("The file name in the consumer's workspace; default the artifact name."),
  type: z.string().optional().describe('json: the artifact must parse as JSON before the step runs.'),
  schema_path: z.string().optional().describe('A JSON Schema file (relative to the manifest) the artifact must match before the step runs.'),
  optional: z.boolean().optional(),
});

export const ExtractSchema = z
  .strictObject({
    schema: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    schema_path: z.string().optional(),
    adapter: z.string().optional(),
    model: z.string().optional(),
  })
  .describe("Turn the step's raw output into JSON matching a schema.");

export const RetrySchema = z.strictObject({
  policy: z.enum(['none', 'standard', 'aggressive', 'patient']).optional(),
  max_attempts: z.number().int().positive().optional(),
  backoff: z.enum(['fixed', 'linear', 'exponential']).optional(),
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
    .enum(['fail', 'skip', 'continue'])
    .optional()
    .describe(
      'When the attempts are spent: fail (default) fails the step and halts the run; skip records it skipped (dependents skipped, the run not failed); continue fails it and the run, but lets independent steps go on.',
    ),
});

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
  description: z.string().optional(),
  dependencies: StringList.optional().describe('Ids of the steps that must finish before this one starts.'),
  optional: z.boolean().optional().describe('A failure of this step does not fail the run.'),
  timeout_minutes: z.number().positive().optional().describe('Time limit of one attempt; default runtime.timeouts.step_default_minutes.'),
  env: EnvMap.optional(),
  exec: z
    .strictObject({
      type: z.enum(['prompt', 'command']).optional().describe("prompt (default) goes to the persona's agent; command runs in a shell."),
      source: z.string().optional(),
      source_path: z.string().optional(),
    })
    .describe('What the step runs: `source` (inline prompt or command) or `source_path` (a file, relative to the manifest).'),
  workspace: z
    .strictObject({
      type: z.enum(['directory', 'worktree']).optional(),
      branch: z.string().optional(),
      base: z.string().optional(),
      mount: z
        .array(
          z.strictObject({
            source: z.string(),
            target: z.string().optional(),
            mode: z.enum(['readonly', 'readwrite']).optional(),
            subset_from: z
              .string()
              .optional()
              .describe(
                'Copy only the files listed in an artifact: `<step>.<artifact>.<json-path>`, the path leading to a JSON list of paths relative to source; entries leading out of source are skipped.',
              ),
          }),
        )
        .optional(),
    })
    .optional()
    .describe('Where the step runs: a fresh folder (default) or a git worktree, with optional copies of project paths.'),
  output_artifacts: z.array(ArtifactSchema).optional().describe('Files (or stdout) the step produces for later steps.'),
  memory: z
    .strictObject({
      strategy: z.string().optional(),
      inject_artifacts: z.array(InjectArtifactSchema).optional().describe("Artifacts of earlier steps copied into this step's workspace."),
    })
    .optional(),
  handover: z
    .strictObject({
      contract: ContractSchema.optional(),
      contracts: z.array(ContractSchema).optional(),
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
});

export const PipelineSchema = z
  .strictObject({
    apiVersion: z.string().optional(),
    kind: z.literal('WavePipeline').describe('Always WavePipeline.'),
    metadata: z.strictObject({
      name: z.string().describe("The pipeline's name, shown in run records."),
      description: z.string().optional(),
      release: z.boolean().optional(),
      category: z.string().optional(),
      disabled: z.boolean().optional().describe('true switches the pipeline off: `wave run` refuses it, `wave validate` still checks it.'),
    }),
    input: z
      .strictObject({
        source: z.string().optional(),
        type: IoTypeSchema.optional().describe("What the input is: string (default, free text), issue_ref, pr_ref, … (Wave's I/O types); a run refuses an input of another shape."),
        schema: z
          .strictObject({
            type: z.enum(INPUT_SCHEMA_TYPES).optional().describe('string (default), or the JSON type the input must parse as: integer, number, boolean, object, array.'),
            description: z.string().optional(),
          })
          .optional(),
        example: z.string().optional(),
        default: z.string().optional(),
      })
      .optional(),
    pipeline_outputs: z.record(z.string(), PipelineOutputSchema).optional().describe("Named outputs of the pipeline, taken from steps' artifacts after the run."),
    steps: z.array(StepSchema).min(1).describe('The steps, run as a dependency graph.'),
    skills: StringList.optional().describe("Skills given to every agent step, added to its persona's ({{ project.<key> }} allowed)."),
    requires: RequiresSchema.optional(),
  })
  .describe('A pipeline: steps run as a dependency graph.');

export type Pipeline = z.infer<typeof PipelineSchema>;
export type Step = z.infer<typeof StepSchema>;
export type Contract = z.infer<typeof ContractSchema>;
export type ArtifactDef = z.infer<typeof ArtifactSchema>;
export type InjectArtifact = z.infer<typeof InjectArtifactSchema>;
export type RetryConfig = z.infer<typeof RetrySchema>;
