import type { ResolvedAdapter } from './resolved-adapter.js';
import { priceTableCost, type TokenUsage } from './tokens.js';

/** Whose public prices a bare model id of each agent CLI is looked up under. */
const PROVIDER_OF: Partial<Record<ResolvedAdapter['type'], string>> = { claude: 'anthropic', codex: 'openai', gemini: 'google' };

/** A loopback endpoint is a local model server: no public price applies to what it serves. */
function isLocalEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/** The cost of `tokens` on `model` from the bundled table of public prices (read offline); undefined for a model it does not know. */
export async function catalogCost(tokens: TokenUsage, model: string, adapterType: ResolvedAdapter['type']): Promise<number | undefined> {
  let calcPrice: typeof import('./price-table.js').calcPrice;
  try {
    ({ calcPrice } = await import('./price-table.js'));
  } catch {
    // An install without the table prices nothing rather than failing the step.
    return undefined;
  }
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

/**
 * An attempt's cost in US dollars: what the CLI reported, else the manifest's `prices` for the adapter, else the public
 * price of a known model (never for a model served on this machine); undefined when none applies.
 */
export async function attemptCost(tokens: TokenUsage, reported: number | undefined, adapter: ResolvedAdapter, model: string | undefined): Promise<number | undefined> {
  if (reported !== undefined) return reported;
  const fromManifest = priceTableCost(tokens, adapter.prices);
  if (fromManifest !== undefined) return fromManifest;
  const name = model ?? adapter.model;
  if (!name || isLocalEndpoint(adapter.baseUrl) || Object.values(tokens).every((n) => n === 0)) return undefined;
  return catalogCost(tokens, name, adapter.type);
}
