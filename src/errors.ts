/** Stable error codes; documented in README.md and checked by test/errors.test.ts. */
export const ERROR_CODES = {
  yaml_syntax: 'The file is not valid YAML.',
  manifest_invalid: 'The manifest does not match its format.',
  pipeline_invalid: 'The pipeline does not match its format.',
  unknown_key: 'A key the format does not define.',
  not_supported: 'A Wave feature that is not built yet.',
  missing_field: 'A required field is absent.',
  wrong_type: 'A value of the wrong type or outside the allowed values.',
  unknown_adapter: 'A persona or step names an adapter the manifest does not declare.',
  unknown_persona: 'A step names a persona the manifest does not declare.',
  unknown_dependency: 'A step depends on a step that does not exist.',
  duplicate_step: 'Two steps share an id.',
  dag_cycle: 'The steps depend on each other in a cycle.',
  file_not_found: 'A file the configuration points at does not exist.',
  env_unset: 'A ${VAR} reference names an unset variable and has no default.',
  unknown_artifact: 'A step injects an artifact its source step does not declare.',
  conflicting_fields: 'Two fields that exclude each other are both set.',
  input_too_large: 'A file is too large, too deeply nested or expands too many aliases to load safely.',
  file_exists: 'A file would be overwritten (pass --force to allow it).',
  template_invalid: 'A template names a variable that does not exist, or sits inside quotes or a heredoc of a command.',
  invalid_argument: 'A command-line argument is wrong.',
  io_error: 'A file could not be read or written.',
  spawn_failed: 'A process could not be started.',
  non_zero_exit: 'A process exited with a non-zero status.',
  timeout: 'A step ran past its time limit.',
  stalled: 'A step produced no output for longer than the stall timeout.',
  aborted: 'A step was cancelled.',
  artifact_missing: 'A required artifact was not produced.',
  artifact_path_invalid: 'An artifact path leads out of its workspace (a path or a symlink).',
  workspace_failed: 'A step workspace could not be prepared (git worktree, mount).',
  mount_modified: 'A step changed a mount declared readonly.',
  run_not_found: 'No run has that id.',
  rate_limited: 'The model provider refused the request for now.',
  auth_failed: 'The model provider rejected the credentials.',
  server_error: 'The model provider failed.',
  context_exhausted: 'The agent ran out of context or turns.',
  contract_failed: 'A step output failed its contract.',
  extract_failed: 'A step output could not be turned into the declared JSON.',
  sandbox_unavailable: 'The configured sandbox backend is not available.',
  egress_denied: 'A sandboxed step tried to reach a host outside its allowlist.',
  limit_exceeded: 'A sandboxed step was stopped by a resource limit (memory, processes).',
  internal: 'An unexpected failure inside Wave.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What an error says about the run: `input` (bad flags, manifest, pipeline, run id: fix and retry), `failure` (the run or the machine failed, or Wave did), `interrupted`. */
export type ErrorKind = 'input' | 'failure' | 'interrupted';

/** The kind of every code, in one table: it decides the exit code (src/cli/exit-codes.ts), documented in README.md. */
export const ERROR_KINDS: Readonly<Record<ErrorCode, ErrorKind>> = {
  yaml_syntax: 'input',
  manifest_invalid: 'input',
  pipeline_invalid: 'input',
  unknown_key: 'input',
  not_supported: 'input',
  missing_field: 'input',
  wrong_type: 'input',
  unknown_adapter: 'input',
  unknown_persona: 'input',
  unknown_dependency: 'input',
  duplicate_step: 'input',
  dag_cycle: 'input',
  file_not_found: 'input',
  env_unset: 'input',
  unknown_artifact: 'input',
  conflicting_fields: 'input',
  input_too_large: 'input',
  file_exists: 'input',
  template_invalid: 'input',
  invalid_argument: 'input',
  run_not_found: 'input',
  io_error: 'failure',
  spawn_failed: 'failure',
  non_zero_exit: 'failure',
  timeout: 'failure',
  stalled: 'failure',
  aborted: 'interrupted',
  artifact_missing: 'failure',
  artifact_path_invalid: 'failure',
  workspace_failed: 'failure',
  mount_modified: 'failure',
  rate_limited: 'failure',
  auth_failed: 'failure',
  server_error: 'failure',
  context_exhausted: 'failure',
  contract_failed: 'failure',
  extract_failed: 'failure',
  sandbox_unavailable: 'failure',
  egress_denied: 'failure',
  limit_exceeded: 'failure',
  internal: 'failure',
};

/** Where in a file a problem is; line and column are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface WaveErrorOptions {
  hint?: string;
  location?: SourceLocation;
  cause?: unknown;
}

/** The one error type of Wave: a stable code, a message, a hint and an optional location. */
export class WaveError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly location?: SourceLocation;

  constructor(code: ErrorCode, message: string, options: WaveErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WaveError';
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }

  /** `file:line:col` when known. */
  where(): string | undefined {
    const l = this.location;
    if (!l) return undefined;
    return [l.file, l.line, l.column].filter((p) => p !== undefined).join(':');
  }

  /** The plain-JSON shape printed by `--json`. */
  toJSON(): WaveErrorJSON {
    return {
      code: this.code,
      file: this.location?.file ?? null,
      line: this.location?.line ?? null,
      column: this.location?.column ?? null,
      message: this.message,
      hint: this.hint ?? null,
    };
  }
}

export interface WaveErrorJSON {
  code: ErrorCode;
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  hint: string | null;
}

/** Several problems found at once (every problem in a file is reported together). */
export class WaveErrors extends Error {
  constructor(readonly errors: WaveError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'WaveErrors';
  }
}

/** Formats an error for a terminal: `file:line:col: code: message` and an indented hint. */
export function formatError(error: WaveError): string {
  const where = error.where();
  const head = `${where ? `${where}: ` : ''}${error.code}: ${error.message}`;
  return error.hint ? `${head}\n  hint: ${error.hint}` : head;
}
