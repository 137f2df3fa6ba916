import type { AdapterType } from '../core/resolved-adapter.js';
import type { AdapterConfig } from './manifest-schema.js';

const NAMED_ADAPTER_TYPES: readonly AdapterType[] = ['claude', 'opencode', 'codex', 'gemini', 'cursor', 'llm'];

/** An adapter's runner: its explicit `type`, else its name when that names one (claude, …, llm), else process. */
export function adapterTypeOf(name: string, adapter: AdapterConfig): AdapterType {
  if (adapter.type) return adapter.type;
  return NAMED_ADAPTER_TYPES.find((type) => type === name) ?? 'process';
}
