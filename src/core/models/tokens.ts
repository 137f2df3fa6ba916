/** Tokens kept separate, as the providers report them. */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** No tokens at all; frozen, so spread it (`{ ...NO_TOKENS }`) for a count that grows. */
export const NO_TOKENS: Readonly<TokenUsage> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** The sum of two token counts, field by field. */
export function addTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}

/** Whether any tokens were reported (command steps report none). */
export function hasTokens(tokens: TokenUsage | undefined): tokens is TokenUsage {
  return tokens !== undefined && tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite > 0;
}

/** A cost in US dollars to ten decimal places: sums of float prices print as 0.00111, not 0.0011099999999999999. */
export function roundUsd(usd: number): number;
export function roundUsd(usd: number | undefined): number | undefined;
export function roundUsd(usd: number | undefined): number | undefined {
  return usd === undefined ? undefined : Math.round(usd * 1e10) / 1e10;
}

/** A manifest's price table: US dollars per million tokens of each kind. */
export interface PriceTable {
  input?: number;
  output?: number;
  cache_read?: number;
  cache_write?: number;
}

/** The cost of `tokens` at `prices`; undefined without a price table. */
export function priceTableCost(tokens: TokenUsage, prices: PriceTable | undefined): number | undefined {
  if (!prices) return undefined;
  const perToken = (price: number | undefined, count: number) => ((price ?? 0) * count) / 1_000_000;
  return (
    perToken(prices.input, tokens.input) + perToken(prices.output, tokens.output) + perToken(prices.cache_read, tokens.cacheRead) + perToken(prices.cache_write, tokens.cacheWrite)
  );
}
