// Written by `npm run schemas` (scripts/format-types.mjs) from src/config/schema: do not edit by hand.
// The formats' types spelled out, so the published declarations need no bundled package; test/api/format-types.test.ts
// proves each equals the type its schema infers.
/** Named keys beside a catch-all for the rest, as a schema's `catchall` infers them. */
type WithCatchall<Rest, Named> = { [K in keyof (Rest & Named)]: (Rest & Named)[K] };

/** The `Manifest` of src/config/schema/manifest-schema.ts. */
export type Manifest = {
  kind: 'WaveManifest';
  apiVersion?: string | undefined;
  metadata?:
    | {
        name: string;
        description?: string | undefined;
        repo?: string | undefined;
        forge?: 'github' | 'gitlab' | 'gitea' | 'forgejo' | 'codeberg' | 'bitbucket' | 'local' | 'none' | undefined;
      }
    | undefined;
  project?:
    | WithCatchall<
        {
          [x: string]: string | number | boolean;
        },
        {
          test_file_pattern?: string[] | undefined;
          test_func_pattern?: string | undefined;
        }
      >
    | undefined;
  adapters?: Record<string, AdapterConfig> | undefined;
  personas?: Record<string, PersonaConfig> | undefined;
  runtime?: RuntimeConfig | undefined;
  skills?: string[] | undefined;
  extract?: { adapter?: string | undefined; model?: string | undefined } | undefined;
};

/** The `AdapterConfig` of src/config/schema/manifest-schema.ts. */
export type AdapterConfig = {
  type?: 'claude' | 'opencode' | 'codex' | 'gemini' | 'cursor' | 'process' | 'llm' | 'browser' | 'plugin' | undefined;
  binary?: string | undefined;
  module?: string | undefined;
  args?: string[] | undefined;
  model?: string | undefined;
  default_model?: string | undefined;
  tier_models?: { cheapest?: string | undefined; balanced?: string | undefined; strongest?: string | undefined } | undefined;
  env?: Record<string, string | number | boolean> | undefined;
  isolated?: boolean | undefined;
  base_url?: string | undefined;
  api_key_env?: string | undefined;
  prices?: Prices | undefined;
  mode?: string | undefined;
  output_format?: string | undefined;
  project_files?: string[] | undefined;
  default_permissions?: { allowed_tools?: string[] | undefined; deny?: string[] | undefined } | undefined;
};

/** The `PersonaConfig` of src/config/schema/manifest-schema.ts. */
export type PersonaConfig = {
  adapter: string;
  description?: string | undefined;
  system_prompt_file?: string | undefined;
  model?: string | undefined;
  temperature?: number | undefined;
  permissions?: { allowed_tools?: string[] | undefined; deny?: string[] | undefined } | undefined;
  sandbox?: { allowed_domains?: string[] | undefined } | undefined;
  skills?: string[] | undefined;
  fallbacks?: string[] | undefined;
  env?: Record<string, string | number | boolean> | undefined;
  token_scopes?: string[] | undefined;
};

/** The `RuntimeConfig` of src/config/schema/manifest-schema.ts. */
export type RuntimeConfig = {
  workspace_root?: string | undefined;
  max_concurrency?: number | undefined;
  max_concurrent_workers?: number | undefined;
  default_timeout_minutes?: number | undefined;
  timeouts?: Timeouts | undefined;
  stall_timeout?: string | number | undefined;
  sandbox?: Sandbox | undefined;
  cost?: Cost | undefined;
  skills?: { allow_install?: boolean | undefined } | undefined;
  fallbacks?: Record<string, string[]> | undefined;
  max_line_bytes?: number | undefined;
  artifacts?: { max_stdout_size?: number | undefined; default_artifact_dir?: string | undefined } | undefined;
  recording?: { enabled?: boolean | undefined; max_file_mb?: number | undefined; max_attempt_mb?: number | undefined } | undefined;
  telemetry?: Telemetry | undefined;
};

/** The `Pipeline` of src/config/schema/pipeline-schema.ts. */
export type Pipeline = {
  kind: 'WavePipeline';
  metadata: { name: string; description?: string | undefined; release?: boolean | undefined; category?: string | undefined; disabled?: boolean | undefined };
  steps: {
    id: string;
    persona?: string | undefined;
    adapter?: string | undefined;
    model?: string | undefined;
    description?: string | undefined;
    dependencies?: string[] | undefined;
    optional?: boolean | undefined;
    rework_only?: boolean | undefined;
    timeout_minutes?: number | undefined;
    env?: Record<string, string | number | boolean> | undefined;
    pipeline?: string | undefined;
    input?: string | undefined;
    config?:
      | {
          inject?: string[] | undefined;
          extract?: string[] | undefined;
          max_cycles?: number | undefined;
          timeout?: string | number | undefined;
          env?: Record<string, string | number | boolean> | undefined;
        }
      | undefined;
    iterate?: { over: string; mode?: 'sequential' | 'parallel' | undefined; max_concurrent?: number | undefined; on_failure?: 'fail' | 'continue' | undefined } | undefined;
    aggregate?: { from: string; into: string; strategy: 'merge_arrays' | 'concat' | 'reduce'; key?: string | undefined } | undefined;
    branch?: { on: string; cases: Record<string, string> } | undefined;
    gate?:
      | {
          type: 'approval' | 'timer' | 'pr_merge' | 'ci_pass';
          auto?: boolean | undefined;
          timeout?: string | number | undefined;
          message?: string | undefined;
          prompt?: string | undefined;
          choices?: { label: string; key: string; target?: string | undefined }[] | undefined;
          default?: string | undefined;
          environment?: string | undefined;
          freeform?: boolean | undefined;
          pr_number?: number | undefined;
          repo?: string | undefined;
          branch?: string | undefined;
          interval?: string | number | undefined;
        }
      | undefined;
    loop?: { steps: Record<string, unknown>[]; max_iterations?: number | undefined; until?: string | undefined } | undefined;
    type?: 'pipeline' | 'gate' | 'command' | 'conditional' | undefined;
    edges?: { target: string; condition?: string | undefined }[] | undefined;
    max_visits?: number | undefined;
    script?: string | undefined;
    exec?: { type?: 'prompt' | 'command' | undefined; source?: string | undefined; source_path?: string | undefined } | undefined;
    workspace?:
      | {
          type?: 'directory' | 'worktree' | undefined;
          branch?: string | undefined;
          base?: string | undefined;
          mount?: { source: string; target?: string | undefined; mode?: 'readonly' | 'readwrite' | undefined; subset_from?: string | undefined }[] | undefined;
        }
      | undefined;
    output_artifacts?: { name: string; path?: string | undefined; type?: string | undefined; required?: boolean | undefined; source?: 'file' | 'stdout' | undefined }[] | undefined;
    memory?:
      | {
          strategy?: string | undefined;
          inject_artifacts?:
            | {
                artifact: string;
                step?: string | undefined;
                pipeline?: string | undefined;
                as?: string | undefined;
                type?: string | undefined;
                schema_path?: string | undefined;
                optional?: boolean | undefined;
              }[]
            | undefined;
        }
      | undefined;
    handover?: { contract?: Contract | undefined; contracts?: Contract[] | undefined } | undefined;
    retry?:
      | {
          policy?: 'none' | 'standard' | 'aggressive' | 'patient' | undefined;
          max_attempts?: number | undefined;
          backoff?: 'fixed' | 'linear' | 'exponential' | undefined;
          base_delay?: string | number | undefined;
          max_delay?: string | number | undefined;
          adapt_prompt?: boolean | undefined;
          continue_session?: boolean | undefined;
          on_failure?: 'fail' | 'continue' | 'skip' | 'rework' | undefined;
          rework_step?: string | undefined;
        }
      | undefined;
    extract?: { schema?: string | Record<string, unknown> | undefined; schema_path?: string | undefined; adapter?: string | undefined; model?: string | undefined } | undefined;
    outcomes?:
      | {
          type: 'file' | 'url' | 'artifact' | 'pr' | 'issue' | 'deployment';
          extract_from: string;
          json_path?: string | undefined;
          json_path_label?: string | undefined;
          label?: string | undefined;
        }[]
      | undefined;
    thread?: string | undefined;
    fidelity?: 'full' | 'compact' | 'summary' | 'fresh' | undefined;
    skills?: string[] | undefined;
    max_concurrent_agents?: number | undefined;
    strategy?: { type: 'matrix'; items_source: string; item_key?: string | undefined; max_concurrency?: number | undefined } | undefined;
    concurrency?: number | undefined;
  }[];
  apiVersion?: string | undefined;
  input?:
    | {
        source?: string | undefined;
        type?: 'string' | 'issue_ref' | 'pr_ref' | 'branch_ref' | 'spec_ref' | 'plan_ref' | 'findings_report' | 'scope_result' | 'workspace_ref' | 'work_item_ref' | undefined;
        schema?: { type?: 'string' | 'number' | 'boolean' | 'object' | 'array' | 'integer' | undefined; description?: string | undefined } | undefined;
        example?: string | undefined;
        default?: string | undefined;
      }
    | undefined;
  pipeline_outputs?:
    | Record<
        string,
        {
          step: string;
          artifact: string;
          field?: string | undefined;
          type?: 'string' | 'issue_ref' | 'pr_ref' | 'branch_ref' | 'spec_ref' | 'plan_ref' | 'findings_report' | 'scope_result' | 'workspace_ref' | 'work_item_ref' | undefined;
        }
      >
    | undefined;
  max_step_visits?: number | undefined;
  skills?: string[] | undefined;
  requires?:
    | {
        tools?: string[] | undefined;
        skills?:
          | Record<
              string,
              { check?: string | undefined; install?: string | undefined; init?: string | undefined; optional?: boolean | undefined; commands_glob?: string | undefined }
            >
          | undefined;
      }
    | undefined;
};

type Prices = { input?: number | undefined; output?: number | undefined; cache_read?: number | undefined; cache_write?: number | undefined };

type Timeouts = {
  step_default_minutes?: number | undefined;
  process_grace_seconds?: number | undefined;
  stdout_drain_seconds?: number | undefined;
  retry_max_delay_seconds?: number | undefined;
  forge_api_seconds?: number | undefined;
  gate_approval_hours?: number | undefined;
  skill_install_seconds?: number | undefined;
  gate_poll_interval_seconds?: number | undefined;
  gate_poll_timeout_minutes?: number | undefined;
};

type Sandbox = {
  enabled?: boolean | undefined;
  backend?: 'none' | 'docker' | 'bubblewrap' | undefined;
  docker_image?: string | undefined;
  default_allowed_domains?: string[] | undefined;
  env_passthrough?: string[] | undefined;
  secret_env?: string[] | undefined;
  limits?: Limits | undefined;
};

type Limits = { memory_mb?: number | undefined; pids?: number | undefined; cpus?: number | undefined; disk_mb?: number | undefined; connections?: number | undefined };

type Cost = { enabled?: boolean | undefined; budget_ceiling?: number | undefined; warn_at?: number | undefined; currency?: string | undefined };

type Telemetry = { otlp?: { endpoint: string; headers?: Record<string, string> | undefined } | undefined; capture_content?: boolean | undefined };

type Contract = {
  type: 'json_schema' | 'test_suite' | 'non_empty_file' | 'llm_judge' | 'agent_review' | 'test_diff' | 'test_count_baseline';
  schema?: string | Record<string, unknown> | undefined;
  schema_path?: string | undefined;
  source?: string | undefined;
  validate?: boolean | undefined;
  command?: string | undefined;
  dir?: string | undefined;
  timeout?: string | number | undefined;
  must_pass?: boolean | undefined;
  on_failure?: 'fail' | 'continue' | 'warn' | 'skip' | 'retry' | 'rework' | 'rejected' | undefined;
  max_retries?: number | undefined;
  rework_step?: string | undefined;
  model?: string | undefined;
  adapter?: string | undefined;
  criteria?: string[] | undefined;
  threshold?: number | undefined;
  persona?: string | undefined;
  criteria_path?: string | undefined;
  context?:
    ({ source: 'git_diff'; diff_base?: string | undefined; max_size?: number | undefined } | { source: 'artifact'; artifact: string; max_size?: number | undefined })[] | undefined;
  token_budget?: number | undefined;
  max_test_deletions?: number | undefined;
  test_file_pattern?: string[] | undefined;
  test_func_pattern?: string | undefined;
  base_ref?: string | undefined;
};
