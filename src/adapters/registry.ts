import { WaveError } from '../core/errors/errors.js';
import type { Redactor } from '../redact.js';
import { LlmRunner } from './llm/runner.js';
import { BrowserRunner } from './browser/runner.js';
import { AgentCliRunner } from './agent-process.js';
import { AGENT_CLIS } from './agent-clis.js';
import { ProcessRunner } from './process/runner.js';
import { PluginRunner } from './plugin/plugin-runner.js';
import type { AdapterRunner } from './types.js';

/** Finds the runner for an adapter's type. */
export class AdapterRegistry {
  private readonly runners = new Map<string, AdapterRunner>();

  /** Adds a runner under its type, replacing one registered before. */
  register(runner: AdapterRunner): this {
    this.runners.set(runner.type, runner);
    return this;
  }

  /** The types that have a runner. */
  types(): string[] {
    return [...this.runners.keys()];
  }

  /** The runner for `type`; a WaveError naming what is available when there is none. */
  resolve(type: string): AdapterRunner {
    const runner = this.runners.get(type);
    if (runner) return runner;
    throw new WaveError('not_supported', `no runner for adapter type "${type}" is available yet`, {
      hint: `Adapter types that can run: ${this.types().join(', ') || '(none)'}. Use type: process with a binary and args for any other CLI.`,
    });
  }
}

export interface DefaultRegistryOptions {
  /** The run's redactor (passthrough values and token shapes), applied to every output file. */
  redactor?: Redactor;
}

/** A registry with every built-in runner: the process, llm and browser runners, the agent CLIs and the plugin runner. */
export function defaultRegistry(options: DefaultRegistryOptions = {}): AdapterRegistry {
  const registry = new AdapterRegistry()
    .register(new ProcessRunner({ redactor: options.redactor }))
    .register(new LlmRunner({ redactor: options.redactor }))
    .register(new BrowserRunner({ redactor: options.redactor }))
    .register(new PluginRunner({ redactor: options.redactor }));
  for (const cli of AGENT_CLIS) registry.register(new AgentCliRunner(cli, options));
  return registry;
}
