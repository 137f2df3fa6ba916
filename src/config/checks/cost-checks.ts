import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord } from '../load/value-path.js';

const AT = ['runtime', 'cost'];

/** `runtime.cost` settings that could not act as written: a currency costs are not counted in, a warning that never comes. */
export function costErrors(root: unknown, locator: Locator): WaveError[] {
  const cost = isRecord(root) && isRecord(root.runtime) ? root.runtime.cost : undefined;
  if (!isRecord(cost)) return [];
  const errors: WaveError[] = [];
  const { currency, enabled, warn_at: warnAt, budget_ceiling: ceiling } = cost;
  // Every cost here is in US dollars (the CLIs', the manifest prices, the public table): another label would lie.
  if (typeof currency === 'string' && currency.trim().toUpperCase() !== 'USD') {
    errors.push(
      new WaveError('not_supported', `\`runtime.cost.currency: ${currency}\` is not supported: costs are counted in US dollars only`, {
        location: locator.locate([...AT, 'currency']),
        hint: 'Write `currency: USD` (or leave it out) and give budget_ceiling and warn_at in US dollars.',
      }),
    );
  }
  const warns = typeof warnAt === 'number' && warnAt > 0;
  const limited = typeof ceiling === 'number' && ceiling > 0;
  // Wave's ledger exists only with enabled: true or a ceiling; without one its warn_at never fires.
  if (warns && !limited && enabled !== true) {
    errors.push(
      new WaveError('missing_field', '`runtime.cost.warn_at` takes effect only with `enabled: true` or a `budget_ceiling` (as in Wave)', {
        location: locator.locateKey([...AT, 'warn_at']),
        hint: 'Add `enabled: true` to runtime.cost, or a budget_ceiling above warn_at.',
      }),
    );
  }
  if (warns && limited && warnAt >= ceiling) {
    errors.push(
      new WaveError('conflicting_fields', `\`runtime.cost.warn_at\` (${warnAt}) is not below \`budget_ceiling\` (${ceiling}): the run would stop before it warned`, {
        location: locator.locate([...AT, 'warn_at']),
        hint: 'Set warn_at below budget_ceiling, or leave it out.',
      }),
    );
  }
  return errors;
}
