import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';

/** The mark `defineAdapter` puts on its value; a global symbol, so a plugin importing another copy of Wave still carries it. */
export const ADAPTER_DEFINITION = Symbol.for('wave.adapter-definition');

/** The fields of an adapter definition without which no attempt can run, and the type each must have. */
export const REQUIRED_DEFINITION_FIELDS = { name: 'string', binary: 'string', prepare: 'function', stream: 'function' } as const;

/** The fields that may be left out, and the type each has when given. */
const OPTIONAL_DEFINITION_FIELDS: Readonly<Record<string, string>> = {
  loginStatus: 'function',
  loginHint: 'string',
  resumeArgs: 'function',
  refusedResume: 'object',
  unsavedSession: 'function',
};

/** What is wrong with a module's default export as an adapter definition: each missing or mistyped field; empty when none. */
export function definitionProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || !(ADAPTER_DEFINITION in value)) return ['its default export is not a defineAdapter({...}) value'];
  const fields = value as Record<string, unknown>;
  const missing = Object.entries(REQUIRED_DEFINITION_FIELDS)
    .filter(([field]) => fields[field] === undefined)
    .map(([field, type]) => `\`${field}\` (a ${type}) is missing`);
  const wanted: [string, string][] = [...Object.entries(REQUIRED_DEFINITION_FIELDS), ...Object.entries(OPTIONAL_DEFINITION_FIELDS)];
  const mistyped = wanted
    .filter(([field, type]) => fields[field] !== undefined && fields[field] !== null && typeof fields[field] !== type)
    .map(([field, type]) => `\`${field}\` is a ${typeof fields[field]}, not a ${type}`);
  return [...missing, ...mistyped];
}

/** A plugin module as loaded: its default export, or why it could not be loaded. */
export type LoadedPlugin = { ok: true; definition: unknown } | { ok: false; problem: string };

const loaded = new Map<string, LoadedPlugin>();

/**
 * Loads a plugin module (an absolute path) once per process, synchronously so the manifest checks can use it: an ES
 * module through require (Node >= 20.19), which refuses one with top-level await. Never throws.
 */
export function loadPluginModule(path: string): LoadedPlugin {
  const known = loaded.get(path);
  if (known) return known;
  const result = readPluginModule(path);
  loaded.set(path, result);
  return result;
}

function readPluginModule(path: string): LoadedPlugin {
  if (!isAbsolute(path)) return { ok: false, problem: `"${path}" is not an absolute path` };
  try {
    const exports: unknown = createRequire(path)(path);
    const definition = typeof exports === 'object' && exports !== null && 'default' in exports ? exports.default : undefined;
    return { ok: true, definition };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `loading it threw: ${message.split('\n')[0]}` };
  }
}
