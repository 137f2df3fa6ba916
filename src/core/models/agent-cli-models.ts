import type { AgentCliType, ResolvedAdapter } from '../resolved-adapter.js';

/** What planning, pricing and the manifest checks (layers below the adapters) know of an agent CLI's models. */
export interface AgentCliModels {
  /** Wave's own model for some tiers (Wave's DefaultComplexityMap, internal/manifest/types.go); `{}` when it has none. */
  tierDefaults: NonNullable<ResolvedAdapter['tierModels']>;
  /** Whether the model `default` runs the CLI without `--model`, on its own choice (opencode.go, gemini.go). */
  defaultMeansNone: boolean;
  /** Whose public prices a bare model id of the CLI is looked up under; null when none applies. */
  priceProvider: string | null;
  /** Where the CLI takes a persona's temperature: always, only in the settings Wave writes with `isolated: true`, or never. */
  temperature: 'always' | 'isolated' | 'never';
}

/**
 * The models entry of each agent CLI, read by its descriptor (src/adapters/<type>/descriptor.ts) and, through the
 * tables derived from it, by the layers that may not import the adapters.
 */
export const AGENT_CLI_MODELS = {
  // Claude's model ids stand for claude adapters only (Wave would hand `claude-haiku-4-5` to any CLI); `balanced` is the adapter's own default.
  claude: { tierDefaults: { cheapest: 'claude-haiku-4-5', strongest: 'claude-opus-4' }, defaultMeansNone: false, priceProvider: 'anthropic', temperature: 'never' },
  opencode: { tierDefaults: {}, defaultMeansNone: true, priceProvider: null, temperature: 'always' },
  codex: { tierDefaults: {}, defaultMeansNone: false, priceProvider: 'openai', temperature: 'never' },
  gemini: { tierDefaults: {}, defaultMeansNone: true, priceProvider: 'google', temperature: 'isolated' },
  cursor: { tierDefaults: {}, defaultMeansNone: false, priceProvider: null, temperature: 'never' },
} as const satisfies Readonly<Record<AgentCliType, AgentCliModels>>;
