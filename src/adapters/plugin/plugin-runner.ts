import { Redactor } from '../../redact.js';
import { failedAttempt, runAgentCli } from '../agent-process.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { pluginDefinitionOf } from './plugin-definition.js';
import { pluginDescriptor } from './plugin-descriptor.js';

/** The runner of every plugin adapter: loads the adapter's module and drives its CLI through the shared agent runner. */
export class PluginRunner implements AdapterRunner {
  readonly type = 'plugin';
  /** A plugin that gives resumeArgs continues sessions; one without reports none, so none is continued. */
  readonly continuesSessions = true;
  private readonly redactor: Redactor;

  constructor(options: { redactor?: Redactor } = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs one attempt; resolves with its result and never rejects. */
  async run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const found = pluginDefinitionOf(config.adapter);
    // The manifest check reports an unusable module before a run; this is for a module changed since.
    if (!found.ok) return failedAttempt({ class: 'spawn_failed', message: found.problem, hint: 'Run `wave validate` to see what the plugin module lacks.' }, 0);
    const result = await runAgentCli(pluginDescriptor(found.definition), config, signal, onEvent, this.redactor);
    if (found.definition.resumeArgs) return result;
    const { sessionId: _unresumable, sessionNotSaved: _unused, ...withoutSession } = result;
    return withoutSession;
  }
}
