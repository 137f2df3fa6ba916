import { Redactor } from '../../redact.js';
import { runAgentCli, type AgentCli } from '../agent-process.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { buildGeminiArgs, buildGeminiEnv } from './invocation.js';
import { GeminiStream } from './outcome.js';
import { prepareGeminiWorkspace } from './workspace.js';

/** Gemini CLI as the shared agent runner drives it: `gemini -p <prompt> --output-format stream-json`. */
export const GEMINI_CLI: AgentCli = {
  defaultBinary: 'gemini',
  async prepare(config: AdapterRunConfig) {
    await prepareGeminiWorkspace(config);
    return { args: buildGeminiArgs(config), env: buildGeminiEnv(config) };
  },
  stream: () => new GeminiStream(),
};

/** The `gemini` adapter: Gemini CLI headless, parsed from its stream-json events. */
export class GeminiRunner implements AdapterRunner {
  readonly type = 'gemini' as const;
  private readonly redactor: Redactor;

  constructor(options: { redactor?: Redactor } = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    return runAgentCli(GEMINI_CLI, config, signal, onEvent, this.redactor);
  }
}
