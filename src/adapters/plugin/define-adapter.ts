import { ADAPTER_DEFINITION } from '../../core/adapter-plugin.js';
import type { AgentCliModels } from '../../core/models/agent-cli-models.js';
import type { AgentCli, AgentCliDescriptor } from '../agent-cli.js';

/**
 * What a plugin module tells Wave of its agent CLI: a built-in CLI's descriptor (AgentCliDescriptor) and runner
 * (AgentCli), named instead of typed. `name`, `binary`, `prepare` and `stream` are required; what only some CLIs have
 * is optional, with these defaults: install, the hint "see its documentation"; keyVariables, none; login, no login
 * files; endpoint, none known; loginStatus, no check (`wave doctor` then judges access by keys and base_url);
 * loginHint, a generic one; configFiles, none; instructionsFile, null (the persona's prompt is in
 * `config.persona.systemPrompt` for prepare to place); skillsFolder, null (no skills copied); skillCommandsFolder,
 * null; models, no tiers, no prices, no temperature; resumeArgs, none (no session is continued).
 */
export interface AdapterDefinition
  extends Partial<Omit<AgentCliDescriptor, 'type' | 'binary' | 'runner' | 'models'>>, Pick<AgentCli, 'prepare' | 'stream' | 'refusedResume' | 'unsavedSession'> {
  /** The CLI's name, used in `wave doctor` and in hints. */
  name: string;
  /** The binary run when the manifest's adapter names none. */
  binary: string;
  /** The arguments that resume `sessionId` (already checked safe), added after prepare's on an attempt continuing the last one's session. */
  resumeArgs?(sessionId: string): string[];
  /** Tier defaults, price provider and temperature support, each defaulting to none. */
  models?: Partial<AgentCliModels>;
}

/** A definition marked as one, as a plugin module's default export must be. */
export type DefinedAdapter = Readonly<AdapterDefinition> & { readonly [ADAPTER_DEFINITION]: true };

/** Marks a plugin module's adapter definition, so Wave recognises the module's default export; the definition is kept as it is. */
export function defineAdapter(definition: AdapterDefinition): DefinedAdapter {
  return Object.freeze({ ...definition, [ADAPTER_DEFINITION]: true as const });
}
