import { Redactor } from '../../redact.js';
import { runAgentCli, type AgentCli } from '../agent-process.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { buildCodexArgs, buildCodexEnv } from './invocation.js';
import { CodexStream } from './outcome.js';
import { prepareCodexWorkspace } from './workspace.js';

/** Codex as the shared agent runner drives it: `codex exec --json <prompt>`. */
export const CODEX_CLI: AgentCli = {
  defaultBinary: 'codex',
  async prepare(config: AdapterRunConfig) {
    await prepareCodexWorkspace(config);
    return { args: buildCodexArgs(config), env: buildCodexEnv(config) };
  },
  stream: () => new CodexStream(),
};

/** The `codex` adapter: Codex headless, parsed from its JSON events. */
export class CodexRunner implements AdapterRunner {
  readonly type = 'codex' as const;
  private readonly redactor: Redactor;

  constructor(options: { redactor?: Redactor } = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    return runAgentCli(CODEX_CLI, config, signal, onEvent, this.redactor);
  }
}
