import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import type { Path } from '../load/value-path.js';

/** The keys only the test-declaration contracts read, and which of them reads each. */
const TEST_KEYS: Record<string, readonly string[]> = {
  max_test_deletions: ['test_diff', 'test_count_baseline'],
  test_file_pattern: ['test_diff', 'test_count_baseline'],
  test_func_pattern: ['test_diff', 'test_count_baseline'],
  base_ref: ['test_count_baseline'],
};

/** The keys of a test_diff or test_count_baseline set on a contract of another type: refused, so none is silently ignored. */
export function strayTestKeys(contract: Record<string, unknown>, path: Path, who: string, locator: Locator): WaveError[] {
  return Object.entries(TEST_KEYS)
    .filter(([key, readers]) => contract[key] !== undefined && !readers.includes(String(contract.type)))
    .map(
      ([key, readers]) =>
        new WaveError('wrong_type', `${who} (${String(contract.type)}) sets \`${key}\`, which only a ${readers.join(' or ')} contract reads`, {
          location: locator.locateKey([...path, key]),
          hint: `Remove it, or set \`type: ${readers[0]}\` if the contract counts test declarations.`,
        }),
    );
}
