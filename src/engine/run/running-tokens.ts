import type { AdapterResult, StreamEvent } from '../../adapters/types.js';
import type { TokenPricer } from '../../core/models/attempt-cost.js';
import { addTokens, hasTokens, NO_TOKENS, type TokenUsage } from '../../core/models/tokens.js';

/** A step's tokens and cost so far. */
export interface TokenTotals {
  tokens: TokenUsage;
  costUsd?: number;
}

/**
 * The running tokens and cost of a step during one attempt: the earlier attempts' totals plus this attempt's
 * usage events as they stream in. A `result` event, then the adapter's result, carry the attempt's
 * authoritative total and replace the streamed sum instead of adding to it. Until the adapter's result, tokens the
 * stream reports without a cost are priced as the result would be (`price`), so the cost runs live too.
 */
export class RunningTokens {
  private attempt: TokenTotals = { tokens: { ...NO_TOKENS } };
  private last: TokenTotals;
  /** Whether the attempt's cost is still an estimate from its tokens; the adapter's result ends it. */
  private estimating = true;

  constructor(
    private readonly before: TokenTotals,
    private readonly price: TokenPricer = () => undefined,
  ) {
    this.last = this.totals();
  }

  /** Folds a stream event in; true when the totals changed. */
  apply(event: StreamEvent): boolean {
    if (event.kind === 'usage') {
      this.attempt = {
        tokens: addTokens(this.attempt.tokens, event.tokens),
        ...(event.costUsd !== undefined || this.attempt.costUsd !== undefined ? { costUsd: (this.attempt.costUsd ?? 0) + (event.costUsd ?? 0) } : {}),
      };
    } else if (event.kind === 'result' && event.tokens) {
      this.attempt = { tokens: { ...event.tokens }, ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}) };
    } else {
      return false;
    }
    return this.changed();
  }

  /**
   * The attempt's final figures: the adapter's, unless it reports nothing (an attempt stopped before its CLI's result:
   * a timeout, a cancel, the run's budget) while its stream reported usage, which was used and paid for all the same.
   */
  final(result: Pick<AdapterResult, 'tokens' | 'costUsd'>): Pick<AdapterResult, 'tokens' | 'costUsd'> {
    const reportsNothing = result.costUsd === undefined && !hasTokens(result.tokens);
    if (!reportsNothing || !hasTokens(this.attempt.tokens)) return result;
    const costUsd = this.attempt.costUsd ?? this.price(this.attempt.tokens);
    return { tokens: { ...this.attempt.tokens }, ...(costUsd !== undefined ? { costUsd } : {}) };
  }

  /** Takes the adapter's final figures for the attempt; true when the totals changed. */
  settle(result: Pick<AdapterResult, 'tokens' | 'costUsd'>): boolean {
    this.attempt = { tokens: { ...result.tokens }, ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}) };
    this.estimating = false;
    return this.changed();
  }

  /** The step's totals: earlier attempts plus this one so far. */
  totals(): TokenTotals {
    const attemptCost = this.attempt.costUsd ?? (this.estimating ? this.price(this.attempt.tokens) : undefined);
    const costUsd = this.before.costUsd === undefined && attemptCost === undefined ? undefined : (this.before.costUsd ?? 0) + (attemptCost ?? 0);
    return { tokens: addTokens(this.before.tokens, this.attempt.tokens), ...(costUsd !== undefined ? { costUsd } : {}) };
  }

  private changed(): boolean {
    const next = this.totals();
    const same = (Object.keys(next.tokens) as Array<keyof TokenUsage>).every((k) => next.tokens[k] === this.last.tokens[k]) && next.costUsd === this.last.costUsd;
    this.last = next;
    return !same;
  }
}
