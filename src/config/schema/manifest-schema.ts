import { z } from 'zod';
import { ADAPTER_TYPES } from '../../core/resolved-adapter.js';
import { Duration, EnvMap, Permissions, StringList } from './common-schema.js';
import { CostSchema } from './cost-schema.js';
import { TokenScopesSchema } from './token-scopes-schema.js';
import { FORGE_OVERRIDES } from '../../core/forge/forge.js';

export const Prices = z
  .strictObject({
    input: z.number().nonnegative().optional().describe('US dollars per million input tokens.'),
    output: z.number().nonnegative().optional().describe('US dollars per million output tokens.'),
    cache_read: z.number().nonnegative().optional().describe('US dollars per million input tokens read from the prompt cache.'),
    cache_write: z.number().nonnegative().optional().describe('US dollars per million input tokens written to the prompt cache.'),
  })
  .describe('US dollars per million tokens, used when the CLI reports no cost of its own.');

export const AdapterSchema = z
  .strictObject({
    type: z
      .enum(ADAPTER_TYPES)
      .optional()
      .describe(
        "Which runner drives this adapter; defaults to plugin when it names a module, else from the adapter's name (claude, opencode, codex, gemini, cursor, llm, browser), else process.",
      ),
    binary: z.string().optional().describe("The executable, found on PATH or in node_modules/.bin; a browser adapter's Chromium."),
    module: z
      .string()
      .optional()
      .describe(
        'A plugin adapter: a JavaScript module, relative to the manifest, whose default export is `defineAdapter({...})` describing the CLI (binary, argv, stream parser, sessions); selects type plugin.',
      ),
    args: StringList.optional().describe('Process adapters: the argv template. "{{prompt}}" becomes one argument; without it the prompt goes to stdin.'),
    model: z.string().optional().describe('The model used when the persona and step name none.'),
    default_model: z.string().optional().describe("Wave's name for model."),
    tier_models: z
      .strictObject({
        cheapest: z.string().optional().describe('The model `model: cheapest` names on this adapter.'),
        balanced: z.string().optional().describe("The model `model: balanced` names on this adapter; default the adapter's model."),
        strongest: z.string().optional().describe('The model `model: strongest` names on this adapter.'),
      })
      .optional()
      .describe(
        "The model each tier (a step, persona or adapter `model: cheapest | balanced | strongest`) names on this adapter; unmapped, claude adapters use Wave's defaults (claude-haiku-4-5, the adapter's model, claude-opus-4) and others only balanced (the adapter's model).",
      ),
    env: EnvMap.optional(),
    isolated: z.boolean().optional().describe('Give each run its own CLI config home, so no user setting leaks in.'),
    base_url: z.string().optional().describe('A model endpoint (local server or OpenAI-compatible API).'),
    api_key_env: z.string().optional().describe('The environment variable that holds the API key.'),
    prices: Prices.optional(),
    mode: z.string().optional().describe('Accepted for Wave compatibility (headless is the only mode).'),
    output_format: z.string().optional().describe("Accepted for Wave compatibility; Wave always reads the CLI's stream format."),
    project_files: StringList.optional().describe('Accepted for Wave compatibility: Wave lists them and reads them nowhere.'),
    default_permissions: Permissions.optional(),
  })
  .describe('An agent CLI, a plain process, an HTTP model or the headless browser.');

export const PersonaSchema = z
  .strictObject({
    adapter: z.string().describe('The name of an adapter declared under adapters.'),
    description: z.string().optional().describe('What the persona is for; information only.'),
    system_prompt_file: z.string().optional().describe("A Markdown file with the persona's instructions, relative to the manifest."),
    model: z.string().optional().describe("A model, or a tier (cheapest, balanced, strongest) resolved through the adapter's tier_models."),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .optional()
      .describe(
        "Sampling temperature: sent by llm adapters, written into opencode.json (OpenCode) and, with isolated: true, Gemini CLI's settings; refused for claude, codex and process adapters, which take none.",
      ),
    permissions: Permissions.optional(),
    sandbox: z
      .strictObject({
        allowed_domains: StringList.optional().describe(
          'Hosts this persona may reach through the egress proxy, added to runtime.sandbox.default_allowed_domains: exact host, *.suffix, optional :port.',
        ),
      })
      .optional()
      .describe("The persona's additions to runtime.sandbox."),
    skills: StringList.optional().describe("Skills (skills/<name>/ or .agents/skills/<name>/ beside wave.yaml) copied into the CLI's skills folder."),
    fallbacks: StringList.optional().describe('Adapters to fall back to, in order, when this one is rate limited.'),
    env: EnvMap.optional(),
    token_scopes: TokenScopesSchema.optional(),
  })
  .describe('An adapter plus a system prompt plus permissions.');

export const TimeoutsSchema = z
  .strictObject({
    step_default_minutes: z.number().positive().optional().describe('Time limit of one attempt of a step that sets no timeout_minutes; default 30.'),
    process_grace_seconds: z.number().nonnegative().optional().describe("How long a stopped step's processes get to exit before they are killed; default 3."),
    stdout_drain_seconds: z.number().nonnegative().optional().describe("How long a stopped step's output is still read before its pipes are closed; default 5."),
    retry_max_delay_seconds: z
      .number()
      .nonnegative()
      .optional()
      .describe("The longest wait between a step's attempts when its retry sets neither max_delay nor policy; default 60."),
    forge_api_seconds: z.number().positive().optional().describe('Time limit of each forge API request (the token scope check before a run); default 60.'),
    gate_approval_hours: z
      .number()
      .positive()
      .optional()
      .describe('How long an approval gate without a `timeout` waits for a person before taking its default; default: no limit.'),
    skill_install_seconds: z
      .number()
      .positive()
      .optional()
      .describe("How long a required skill's install, check or init command may run in the sandbox before it is stopped; default 300."),
    gate_poll_interval_seconds: z.number().positive().optional().describe('Time between two looks of a pr_merge or ci_pass gate without `interval`; default 30.'),
    gate_poll_timeout_minutes: z.number().positive().optional().describe('How long a pr_merge or ci_pass gate without `timeout` polls; default 60.'),
  })
  .describe('Time limits; step_default_minutes defaults to 30, process_grace_seconds to 3, stdout_drain_seconds to 5.');

export const SandboxLimitsSchema = z
  .strictObject({
    memory_mb: z.number().int().positive().optional().describe('Memory a step may use, in MiB; default 4096. A step past it is stopped with limit_exceeded.'),
    pids: z.number().int().positive().optional().describe('Processes and threads a step may run at once; default 1024.'),
    cpus: z.number().positive().optional().describe('CPU cores a step may use (fractions allowed); default 2.'),
    disk_mb: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Disk a step may fill, in MiB: what it adds to its workspace, HOME and /tmp; default 10240. A step past it is stopped with limit_exceeded.'),
    connections: z.number().int().positive().optional().describe('Connections a step may hold open to its egress proxy at once; default 256; past it one is refused.'),
  })
  .describe('Resource limits of each sandboxed step.');

export const SandboxSchema = z
  .strictObject({
    enabled: z.boolean().optional().describe("Wave's switch: true means bubblewrap when backend is unset."),
    backend: z.enum(['none', 'docker', 'bubblewrap']).optional().describe('Where steps run: none (on the host), bubblewrap, or docker.'),
    docker_image: z.string().optional().describe('The image of the docker backend; default wave-sandbox:local (built by `wave sandbox image`). Never pulled.'),
    default_allowed_domains: StringList.optional().describe('Hosts every sandboxed step may reach through the egress proxy: exact host, *.suffix, optional :port.'),
    env_passthrough: StringList.optional().describe(
      'Parent environment variables handed to steps; the values of those whose names say secret (KEY, TOKEN, SECRET, PASSWORD, AUTH, ...) are redacted.',
    ),
    secret_env: StringList.optional().describe('Environment variables whose values are secrets whatever their names: redacted from every record and printed line.'),
    limits: SandboxLimitsSchema.optional(),
  })
  .describe('Process isolation and the egress allowlist.');

export const RuntimeSchema = z
  .strictObject({
    workspace_root: z.string().optional().describe('Where step workspaces are made; default .wave/workspaces.'),
    max_concurrency: z.number().int().positive().optional().describe('Steps run at once; default 10.'),
    max_concurrent_workers: z.number().int().positive().optional().describe("Wave's older name for max_concurrency."),
    default_timeout_minutes: z.number().positive().optional().describe("Wave's older name for timeouts.step_default_minutes."),
    timeouts: TimeoutsSchema.optional(),
    stall_timeout: Duration.optional().describe('End an attempt as stalled after this long without output; unset or 0 disables.'),
    sandbox: SandboxSchema.optional(),
    cost: CostSchema.optional(),
    skills: z
      .strictObject({
        allow_install: z
          .boolean()
          .optional()
          .describe("true: pipelines' `requires.skills` install and init commands run (in the sandbox), as with `wave run --install-skills`; default false."),
      })
      .optional()
      .describe('What the skills pipelines require may run to set themselves up.'),
    fallbacks: z.record(z.string(), StringList).optional().describe('Adapter name -> adapters to try when it is rate limited.'),
    max_line_bytes: z.number().int().positive().optional().describe('Longest output line parsed; longer lines are counted and skipped. Default 10 MiB.'),
    artifacts: z
      .strictObject({
        max_stdout_size: z
          .number()
          .int()
          .positive()
          .optional()
          .describe('Largest stdout, in bytes, a step with a `source: stdout` artifact may produce; past it the step fails. Default 10 MiB.'),
        default_artifact_dir: z
          .string()
          .optional()
          .describe("When set, each `source: stdout` artifact is also written into the step's workspace at <dir>/<step-id>/<name> (Wave's default is .agents/artifacts)."),
      })
      .optional()
      .describe('Output artifact limits and locations.'),
    recording: z
      .strictObject({
        enabled: z.boolean().optional().describe('false: attempts keep no copy of the workspace files they changed and llm steps no http.ndjson; default true.'),
        max_file_mb: z.number().positive().optional().describe('Largest changed file, in MiB, whose content an attempt keeps; a larger one is listed as omitted. Default 8.'),
        max_attempt_mb: z.number().positive().optional().describe('Most changed-file content, in MiB, one attempt keeps; the files past it are listed as omitted. Default 64.'),
      })
      .optional()
      .describe("What each attempt's folder keeps for a replay: the files it changed, in full, and an llm step's HTTP exchange."),
    telemetry: z
      .strictObject({
        otlp: z
          .strictObject({
            endpoint: z
              .url({ protocol: /^https?$/ })
              .describe('The OTLP/HTTP endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` is added); the OTEL_EXPORTER_OTLP_* variables win over it.'),
            headers: z
              .record(z.string(), z.string())
              .optional()
              .describe(
                'Headers sent with every export (an API key, a tenant), as OTEL_EXPORTER_OTLP_HEADERS; give a key as `${VAR}` of a variable whose name says secret, so records redact it.',
              ),
          })
          .optional()
          .describe("Send each run's spans live to this OpenTelemetry collector over OTLP/HTTP; without it (and the variables) the trace is only written to the run's otel.jsonl."),
        capture_content: z
          .boolean()
          .optional()
          .describe(
            "true: spans keep tool arguments and results and an agent's final answer (redacted), as OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true; default false.",
          ),
      })
      .optional()
      .describe("Each run's OpenTelemetry trace (docs/traces.md): where it is sent and what it keeps."),
  })
  .describe('How steps run.');

export const ManifestSchema = z
  .strictObject({
    apiVersion: z.string().optional().describe('Format version; v1.'),
    kind: z.literal('WaveManifest').describe('Always WaveManifest.'),
    metadata: z
      .strictObject({
        name: z.string().describe("The project's name."),
        description: z.string().optional().describe('What the project is; information only.'),
        repo: z.string().optional().describe("The project's repository; information only (the forge is found from the git remote)."),
        forge: z
          .enum(FORGE_OVERRIDES)
          .optional()
          .describe(
            "The project's forge, overriding the one found from the git remote (none is local): what `{{ forge.type }}` becomes in persona names and templates, and whose token `token_scopes` are checked against.",
          ),
      })
      .optional()
      .describe("The project's name, description and forge."),
    project: z
      .object({
        test_file_pattern: StringList.optional().describe(
          "The project's test files (git pathspecs), for test_diff and test_count_baseline contracts that name none; not a template value.",
        ),
        test_func_pattern: z
          .string()
          .optional()
          .describe('A regular expression matching one test declaration per line, for test_diff and test_count_baseline contracts that give none.'),
      })
      .catchall(z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe('Project facts (language, test_command, …), available to prompts as {{ project.<key> }}.'),
    adapters: z.record(z.string(), AdapterSchema).optional().describe('Agent CLIs, processes and HTTP models, by name.'),
    personas: z.record(z.string(), PersonaSchema).optional().describe('Roles steps run as, by name.'),
    runtime: RuntimeSchema.optional(),
    skills: StringList.optional().describe("Skills given to every agent step, beside its persona's and its pipeline's (from skills/<name>/ or .agents/skills/<name>/)."),
    extract: z
      .strictObject({
        adapter: z.string().optional().describe("The adapter asked for a step's JSON when its extract names none; also judges llm_judge contracts that name no adapter."),
        model: z.string().optional().describe("The model asked for a step's JSON when its extract names none."),
      })
      .optional()
      .describe('Defaults for steps that declare extract: the adapter and model asked for JSON.'),
  })
  .describe('wave.yaml: the adapters, personas and runtime policy of a project.');

export type Manifest = z.infer<typeof ManifestSchema>;
export type AdapterConfig = z.infer<typeof AdapterSchema>;
export type PersonaConfig = z.infer<typeof PersonaSchema>;
export type RuntimeConfig = z.infer<typeof RuntimeSchema>;
