import { ADAPTER_TYPES, type AdapterType } from '../../core/resolved-adapter.js';
import type { AdapterConfig } from './manifest-schema.js';

/** The types an adapter's name selects: every runner but `process`, which is what any other name gets, and `plugin`, which `module` selects. */
const NAMED_ADAPTER_TYPES: readonly AdapterType[] = ADAPTER_TYPES.filter((type) => type !== 'process' && type !== 'plugin');

/** Wave's prefix of OpenCode forks (`opencode-patched`, `opencode-qwen`): OpenCode's runner with the adapter's own binary. */
const OPENCODE_FORK_PREFIX = 'opencode-';

/**
 * An adapter's runner: its explicit `type`, else `plugin` when it names a `module`, else what its name says as Wave reads it (internal/adapter/registry.go,
 * case-insensitive): claude, …, llm, an `opencode-*` fork, else process.
 */
export function adapterTypeOf(name: string, adapter: AdapterConfig): AdapterType {
  if (adapter.type) return adapter.type;
  if (adapter.module !== undefined) return 'plugin';
  const lower = name.toLowerCase();
  if (lower.startsWith(OPENCODE_FORK_PREFIX)) return 'opencode';
  return NAMED_ADAPTER_TYPES.find((type) => type === lower) ?? 'process';
}
