/** What an error says about the run: `input` (bad flags, manifest, pipeline, run id: fix and retry), `failure` (the run or the machine failed, or Wave did), `interrupted`. */
export type ErrorKind = 'input' | 'failure' | 'interrupted';

/** What a new attempt of a step does about a failure: `retried` (it may fix it) or `final` (it cannot). */
export type AttemptFate = 'retried' | 'final';

interface ErrorCodeRow {
  /** One sentence, as the error table of docs/errors-and-exit-codes.md gives it. */
  description: string;
  /** Decides the exit code (src/cli/exit-codes.ts). */
  kind: ErrorKind;
  /** Present when a step attempt can fail with this code (it is a FailureClass): whether the step's retry policy retries it. */
  attempt?: AttemptFate;
}

/** Every stable error code, in one table: its description, its kind and, for a step failure, its retry; documented in README.md and checked by test/errors.test.ts. */
export const ERROR_TABLE = {
  yaml_syntax: { description: 'The file is not valid YAML.', kind: 'input' },
  manifest_invalid: { description: 'The manifest does not match its format.', kind: 'input' },
  pipeline_invalid: { description: 'The pipeline does not match its format.', kind: 'input' },
  unknown_key: { description: 'A key the format does not define.', kind: 'input' },
  // A step reaches one only at run time (a gate's choice that goes back): running it again would reach it again.
  not_supported: { description: 'A Wave feature that is not built yet.', kind: 'input', attempt: 'final' },
  missing_field: { description: 'A required field is absent.', kind: 'input' },
  wrong_type: { description: 'A value of the wrong type or outside the allowed values.', kind: 'input' },
  unknown_adapter: { description: 'A persona or step names an adapter the manifest does not declare.', kind: 'input' },
  unknown_persona: { description: 'A step names a persona the manifest does not declare.', kind: 'input' },
  model_tier_unmapped: { description: 'A model tier (cheapest, balanced, strongest) that the adapter running it does not map to a model.', kind: 'input' },
  unknown_dependency: { description: 'A step depends on, or a pipeline output names, a step that does not exist.', kind: 'input' },
  duplicate_step: { description: 'Two steps share an id.', kind: 'input' },
  dag_cycle: { description: 'The steps depend on each other in a cycle.', kind: 'input' },
  pipeline_cycle: { description: 'A chain of child pipelines comes back to one of its own.', kind: 'input' },
  thread_unordered: { description: 'A step of a thread does not depend on any earlier step of that thread, so they could run at once.', kind: 'input' },
  file_not_found: { description: 'A file the configuration points at does not exist.', kind: 'input' },
  env_unset: { description: 'A ${VAR} reference names an unset variable and has no default.', kind: 'input' },
  unknown_artifact: { description: 'A step injects, or a pipeline output names, an artifact its step does not declare.', kind: 'input' },
  conflicting_fields: { description: 'Two fields that exclude each other are both set.', kind: 'input' },
  input_too_large: { description: 'A file is too large, too deeply nested or expands too many aliases to load safely.', kind: 'input' },
  file_exists: { description: 'A file would be overwritten (pass --force to allow it).', kind: 'input' },
  // Found by the plan, or by a step whose template reads a field its dependency's output lacks.
  template_invalid: {
    description: "A template names a variable that does not exist, or sits where a command's shell expands nothing (a <<'EOF' heredoc, a $'…' string).",
    kind: 'input',
    attempt: 'final',
  },
  invalid_argument: { description: 'A command-line argument is wrong.', kind: 'input' },
  input_invalid: { description: "The run's input does not fit the pipeline's input.type or input.schema.type.", kind: 'input' },
  pipeline_disabled: { description: 'The pipeline is switched off (metadata.disabled: true).', kind: 'input' },
  run_not_found: { description: 'No run has that id.', kind: 'input' },
  cassette_invalid: {
    description:
      'A cassette file is not one Wave can replay: not a tar.gz, an entry that is not a plain file or folder, too large, or a cassette.json that does not fit its format.',
    kind: 'input',
  },
  io_error: { description: 'A file could not be read or written.', kind: 'failure', attempt: 'final' },
  spawn_failed: { description: 'A process could not be started.', kind: 'failure', attempt: 'final' },
  non_zero_exit: { description: 'A process exited with a non-zero status.', kind: 'failure', attempt: 'retried' },
  timeout: { description: 'A step ran past its time limit.', kind: 'failure', attempt: 'retried' },
  stalled: { description: 'A step produced no output for longer than the stall timeout.', kind: 'failure', attempt: 'retried' },
  aborted: { description: 'A step was cancelled.', kind: 'interrupted', attempt: 'final' },
  browser_action_failed: {
    description: "A browser step's action failed: a page that did not load, a selector not found in time, a host outside the egress allowlist.",
    kind: 'failure',
    attempt: 'retried',
  },
  artifact_missing: { description: 'A required artifact was not produced.', kind: 'failure', attempt: 'retried' },
  artifact_path_invalid: { description: 'An artifact path leads out of its workspace (a path or a symlink).', kind: 'failure', attempt: 'retried' },
  workspace_failed: { description: 'A step workspace could not be prepared (git worktree, mount).', kind: 'failure', attempt: 'final' },
  // The workspace keeps the changed mount, so a new attempt would find it changed again.
  mount_modified: { description: 'A step changed a mount declared readonly.', kind: 'failure', attempt: 'final' },
  rate_limited: { description: 'The model provider refused the request for now.', kind: 'failure', attempt: 'retried' },
  auth_failed: { description: 'The model provider rejected the credentials.', kind: 'failure', attempt: 'final' },
  server_error: { description: 'The model provider failed.', kind: 'failure', attempt: 'retried' },
  context_exhausted: { description: 'The agent ran out of context.', kind: 'failure', attempt: 'retried' },
  max_turns: { description: 'The agent reached its limit of turns.', kind: 'failure', attempt: 'retried' },
  // Spent money stays spent: a new attempt could only spend more (Wave's budget_exhausted is not retryable either).
  budget_exhausted: {
    description: "The run's cost reached runtime.cost.budget_ceiling, or the agent reached its own spending limit.",
    kind: 'failure',
    attempt: 'final',
  },
  // A contract's own on_failure policy decides its retries, never the step's retry policy.
  contract_failed: { description: 'A step output failed its contract.', kind: 'failure', attempt: 'final' },
  extract_failed: { description: 'A step output could not be turned into the declared JSON.', kind: 'failure', attempt: 'retried' },
  // A daemon that died mid-step may be back by the next attempt; before the run, preflight stops it at once.
  sandbox_unavailable: { description: 'The configured sandbox backend is not available.', kind: 'failure', attempt: 'retried' },
  token_scope_missing: { description: "A forge token lacks a scope a persona's token_scopes requires, or does not reach the persona's steps.", kind: 'failure' },
  requirement_missing: { description: "A tool or skill the pipeline's requires names is not on this machine.", kind: 'failure' },
  artifact_source_missing: {
    description: "A step injects another pipeline's artifact, and no parent run or earlier `wave compose` stage hands that pipeline's artifacts over.",
    kind: 'failure',
  },
  gate_rejected: { description: 'A gate was answered with a choice that fails the run, or rejected.', kind: 'failure', attempt: 'final' },
  // The walk would only come back the same way.
  route_stopped: {
    description:
      'A loop of graph routing or gate choices was stopped: a step reached max_visits, the run max_step_visits, a step failed the same way three times, or no edge matched.',
    kind: 'failure',
    attempt: 'final',
  },
  // Run by run the same nesting would come again.
  pipeline_too_deep: { description: 'A child pipeline would start deeper than the limit of nested child runs.', kind: 'failure', attempt: 'final' },
  limit_exceeded: {
    description: "A sandboxed step was stopped by a resource limit (memory, processes, disk), or an attempt's artifacts passed the size Wave stores.",
    kind: 'failure',
    attempt: 'retried',
  },
  // A generated value is drawn from the schema alone: a new attempt would draw the same.
  simulate_unsatisfiable: {
    description: "Under `wave run --simulate`, no value generated from a step's JSON Schema satisfies it (a schema nothing can match).",
    kind: 'failure',
    attempt: 'final',
  },
  simulate_fixture_invalid: {
    description: 'A `--simulate-outputs` fixture leads out of its folder (a `..` path or a symlink) or is not a file.',
    kind: 'failure',
    attempt: 'final',
  },
  // A recording answers the same request the same way: a new attempt would find the same.
  replay_mismatch: {
    description: 'Under `wave replay` (strict), an agent or model attempt matches no recorded attempt: the first differing field is named.',
    kind: 'failure',
    attempt: 'final',
  },
  replay_exhausted: { description: 'Under `wave replay` (strict), a step asks for more attempts than its recording holds.', kind: 'failure', attempt: 'final' },
  replay_unrecorded: {
    description: 'The attempt `wave replay` would serve was recorded before Wave kept recordings (its attempt.json has no `recording` version).',
    kind: 'failure',
    attempt: 'final',
  },
  replay_incomplete: {
    description: "The recorded attempt left a file out of its recording (past a size cap), so `wave replay` cannot restore the attempt's workspace.",
    kind: 'failure',
    attempt: 'final',
  },
  trace_export_failed: { description: '`wave trace` could not send the trace: the collector refused it, failed, or did not answer in time.', kind: 'failure' },
  internal: { description: 'An unexpected failure inside Wave.', kind: 'failure', attempt: 'final' },
} as const satisfies Record<string, ErrorCodeRow>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** Why an attempt failed: the codes whose row has an `attempt` column; decides what happens next (retry, wait, fall back, stop). */
export type FailureClass = { [C in ErrorCode]: (typeof ERROR_TABLE)[C] extends { attempt: AttemptFate } ? C : never }[ErrorCode];

const CODES = Object.keys(ERROR_TABLE) as ErrorCode[];
const rowOf = (code: ErrorCode): ErrorCodeRow => ERROR_TABLE[code];

/** Every code with its one-sentence description. */
export const ERROR_CODES = Object.fromEntries(CODES.map((code) => [code, rowOf(code).description])) as Readonly<Record<ErrorCode, string>>;

/** The kind of every code: it decides the exit code. */
export const ERROR_KINDS = Object.fromEntries(CODES.map((code) => [code, rowOf(code).kind])) as Readonly<Record<ErrorCode, ErrorKind>>;

/** Whether `code` is one a step attempt can fail with. */
export function isFailureClass(code: ErrorCode): code is FailureClass {
  return rowOf(code).attempt !== undefined;
}

/** Every FailureClass, as a value, in the table's order. */
export const FAILURE_CLASSES: readonly FailureClass[] = CODES.filter(isFailureClass);

/** Whether the step's retry policy tries again after an attempt failed with `failureClass`. */
export function isRetried(failureClass: FailureClass): boolean {
  return rowOf(failureClass).attempt === 'retried';
}
