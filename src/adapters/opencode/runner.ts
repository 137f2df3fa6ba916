import { Redactor } from '../../redact.js';
import { runAgentCli, type AgentCli } from '../agent-process.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { buildOpenCodeArgs, buildOpenCodeEnv } from './invocation.js';
import { OpenCodeStream } from './outcome.js';
import { prepareOpenCodeWorkspace } from './workspace.js';

/** OpenCode as the shared agent runner drives it: `opencode run --format json <prompt>`. */
export const OPENCODE_CLI: AgentCli = {
  defaultBinary: 'opencode',
  async prepare(config: AdapterRunConfig) {
    await prepareOpenCodeWorkspace(config);
    return { args: buildOpenCodeArgs(config), env: buildOpenCodeEnv(config) };
  },
  stream: () => new OpenCodeStream(),
};

/** The `opencode` adapter: OpenCode headless, parsed from its JSON events. */
export class OpenCodeRunner implements AdapterRunner {
  readonly type = 'opencode' as const;
  private readonly redactor: Redactor;

  constructor(options: { redactor?: Redactor } = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    return runAgentCli(OPENCODE_CLI, config, signal, onEvent, this.redactor);
  }
}
