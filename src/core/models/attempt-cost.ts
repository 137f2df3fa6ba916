import { AGENT_CLI_MODELS } from './agent-cli-models.js';
import { AGENT_CLI_TYPES, type ResolvedAdapter } from '../resolved-adapter.js';
import { isLocalEndpoint } from './local-endpoint.js';
import { hasTokens, priceTableCost, roundUsd, type TokenUsage } from './tokens.js';

/** Whose public prices a bare model id of each agent CLI is looked up under (its `priceProvider`). */
export const PROVIDER_OF: Partial<Record<ResolvedAdapter['type'], string>> = Object.fromEntries(
  AGENT_CLI_TYPES.flatMap((type) => {
    const provider = AGENT_CLI_MODELS[type].priceProvider;
    return provider === null ? [] : [[type, provider] as const];
  }),
);

/** Whether every endpoint the attempt's model is reached at is on this machine: a local model server, which no public price (nor the CLI's own estimate) applies to. */
export function servedLocally(endpoints: readonly string[]): boolean {
  return endpoints.length > 0 && endpoints.every(isLocalEndpoint);
}

type CalcPrice = typeof import('./price-table.js').calcPrice;

/** The public price table's lookup, loaded on first use; undefined in an install without the table. */
async function loadCatalog(): Promise<CalcPrice | undefined> {
  try {
    return (await import('./price-table.js')).calcPrice;
  } catch {
    // An install without the table prices nothing rather than failing the step.
    return undefined;
  }
}

/** The cost of `tokens` on `model` by the loaded table; undefined for a model it does not know. */
function catalogPrice(calcPrice: CalcPrice, tokens: TokenUsage, model: string, adapterType: ResolvedAdapter['type']): number | undefined {
  // OpenCode names models `<provider>/<model>`.
  const [providerId, modelId] = model.includes('/') ? [model.slice(0, model.indexOf('/')), model.slice(model.indexOf('/') + 1)] : [PROVIDER_OF[adapterType], model];
  // The table counts cached tokens inside input; Wave keeps them apart.
  const usage = {
    input_tokens: tokens.input + tokens.cacheRead + tokens.cacheWrite,
    output_tokens: tokens.output,
    cache_read_tokens: tokens.cacheRead,
    cache_write_tokens: tokens.cacheWrite,
  };
  try {
    return calcPrice(usage, modelId, providerId ? { providerId } : {})?.total_price ?? calcPrice(usage, modelId)?.total_price;
  } catch {
    return undefined;
  }
}

/** The cost of `tokens` on `model` from the bundled table of public prices (read offline); undefined for a model it does not know. */
export async function catalogCost(tokens: TokenUsage, model: string, adapterType: ResolvedAdapter['type']): Promise<number | undefined> {
  const calcPrice = await loadCatalog();
  return calcPrice ? catalogPrice(calcPrice, tokens, model, adapterType) : undefined;
}

/** Prices tokens without waiting: what a running attempt has used so far. */
export type TokenPricer = (tokens: TokenUsage) => number | undefined;

/**
 * attemptCost's rule for a cost the CLI has not reported (yet): the manifest's `prices`, else the public price of a
 * known model served elsewhere; the table is loaded before it returns, so pricing never waits.
 */
export async function attemptPricer(
  adapter: ResolvedAdapter,
  model: string | undefined,
  endpoints: readonly string[] = adapter.baseUrl ? [adapter.baseUrl] : [],
): Promise<TokenPricer> {
  const prices = adapter.prices;
  if (prices) return (tokens) => roundUsd(priceTableCost(tokens, prices));
  const name = model ?? adapter.model;
  const calcPrice = name && !servedLocally(endpoints) ? await loadCatalog() : undefined;
  if (!name || !calcPrice) return () => undefined;
  return (tokens) => (!hasTokens(tokens) ? undefined : roundUsd(catalogPrice(calcPrice, tokens, name, adapter.type)));
}

/**
 * An attempt's cost in US dollars: what the CLI reported, else the manifest's `prices` for the adapter, else the public
 * price of a known model (never for a model served on this machine); undefined when none applies.
 */
export async function attemptCost(
  tokens: TokenUsage,
  reported: number | undefined,
  adapter: ResolvedAdapter,
  model: string | undefined,
  endpoints: readonly string[] = adapter.baseUrl ? [adapter.baseUrl] : [],
): Promise<number | undefined> {
  // A CLI prices by its own list whatever served the model: a local server's answers cost nothing of the sort.
  // A zero the CLI reports for an attempt that used nothing (a refused request) is no cost either: nothing to show.
  if (reported === 0 && !hasTokens(tokens)) return undefined;
  if (reported !== undefined && !servedLocally(endpoints)) return roundUsd(reported);
  return (await attemptPricer(adapter, model, endpoints))(tokens);
}
