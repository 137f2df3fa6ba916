import { Redactor } from '../../redact.js';
import { runAgentCli, type AgentCli } from '../agent-process.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { buildClaudeArgs, buildClaudeEnv } from './invocation.js';
import { ClaudeStream } from './outcome.js';
import { prepareClaudeWorkspace } from './workspace.js';

/** Claude Code as the shared agent runner drives it: `claude -p` with the prompt on stdin. */
export const CLAUDE_CLI: AgentCli = {
  defaultBinary: 'claude',
  async prepare(config: AdapterRunConfig) {
    await prepareClaudeWorkspace(config);
    const args = buildClaudeArgs(config, config.persona?.systemPrompt ?? '');
    return { args, env: buildClaudeEnv(config, args), stdin: config.prompt };
  },
  stream: () => new ClaudeStream(),
};

/** The `claude` adapter: Claude Code headless, parsed from its stream-json output. */
export class ClaudeRunner implements AdapterRunner {
  readonly type = 'claude' as const;
  private readonly redactor: Redactor;

  constructor(options: { redactor?: Redactor } = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    return runAgentCli(CLAUDE_CLI, config, signal, onEvent, this.redactor);
  }
}
