import type { ResolvedAdapter } from '../../core/resolved-adapter.js';

/** Adapters built into Wave (internal/adapter/registry.go) that a manifest may name without declaring: the headless browser. */
const BUILTIN_ADAPTERS: ReadonlyMap<string, ResolvedAdapter> = new Map([['browser', Object.freeze({ name: 'browser', type: 'browser', env: {}, isolated: false } as const)]]);

/** Whether `name` is one of Wave's built-in adapters, which a step or persona may name without the manifest declaring it. */
export function isBuiltinAdapter(name: string): boolean {
  return BUILTIN_ADAPTERS.has(name);
}

/** The built-in adapter of that name, with its defaults; undefined for any other name. */
export function builtinAdapter(name: string): ResolvedAdapter | undefined {
  const adapter = BUILTIN_ADAPTERS.get(name);
  return adapter && { ...adapter, env: {} };
}
