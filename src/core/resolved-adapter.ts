import type { PriceTable } from './models/tokens.js';

/** The agent CLIs Wave drives; each has one descriptor in src/adapters/<type>/descriptor.ts. */
export const AGENT_CLI_TYPES = ['claude', 'opencode', 'codex', 'gemini', 'cursor'] as const;
export type AgentCliType = (typeof AGENT_CLI_TYPES)[number];

/** The runners an adapter can be driven by; the manifest's `adapters.<name>.type` takes one of these (`plugin`: one that names a `module`). */
export const ADAPTER_TYPES = [...AGENT_CLI_TYPES, 'process', 'llm', 'browser', 'plugin'] as const;
export type AdapterType = (typeof ADAPTER_TYPES)[number];

/** Whether an adapter type is one of the agent CLIs. */
export function isAgentCliType(type: AdapterType): type is AgentCliType {
  return (AGENT_CLI_TYPES as readonly string[]).includes(type);
}

/** The resolved adapter a step runs on: the plan builds it, the executor and the runners read it. */
export interface ResolvedAdapter {
  name: string;
  type: AdapterType;
  binary?: string;
  args?: string[];
  /** The adapter's own model, never a tier (src/core/models/model-tiers.ts resolves those). */
  model?: string;
  /** The adapter's `tier_models`: what `cheapest`, `balanced` and `strongest` mean on it. */
  tierModels?: Readonly<Partial<Record<'cheapest' | 'balanced' | 'strongest', string>>>;
  env: Record<string, string>;
  isolated: boolean;
  baseUrl?: string;
  apiKeyEnv?: string;
  prices?: PriceTable;
  /** A plugin adapter's module (absolute): it default-exports the `defineAdapter` value that describes its CLI. */
  module?: string;
}

/** The persona a step runs as, with its prompt already read from disk. */
export interface ResolvedPersona {
  name: string;
  systemPrompt: string;
  allowedTools: string[];
  deniedTools: string[];
  /** The persona's own sandbox.allowed_domains (the manifest's defaults are added by the executor). */
  allowedDomains: string[];
  /** The skills the persona lists, as written (the step's merged list is PlannedStep.skills). */
  skills: string[];
  /** The sampling temperature, for the adapters that take one (manifest-checks.ts refuses it for the others). */
  temperature?: number;
}
