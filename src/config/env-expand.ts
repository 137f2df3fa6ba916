import { Scalar, visit } from 'yaml';
import { WaveError } from '../errors.js';
import { positionAt, type YamlSource } from './yaml-source.js';

// `$${VAR}` (escaped), `${VAR}` or `${VAR:-default}`.
const REFERENCE = /(\$?)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;

/** Expands `${VAR}` and `${VAR:-default}` in one string; `$${VAR}` stays as a literal `${VAR}`. */
export function expandEnvString(text: string, env: NodeJS.ProcessEnv): { value: string; unset: string[] } {
  const unset: string[] = [];
  const value = text.replace(REFERENCE, (whole, escape: string, name: string, fallback: string | undefined) => {
    if (escape) return whole.slice(1);
    const current = env[name];
    // Like the shell's `:-`, an empty variable also takes the default.
    if (fallback !== undefined) return current ? current : fallback;
    if (current === undefined) {
      unset.push(name);
      return whole;
    }
    return current;
  });
  return { value, unset };
}

/**
 * Expands environment references in every string scalar value of the document (never in keys).
 * A plain scalar that was a single reference is re-typed, so `max_concurrency: ${N:-4}` is a number.
 */
export function expandEnvInDocument(source: YamlSource, env: NodeJS.ProcessEnv): WaveError[] {
  const errors: WaveError[] = [];
  visit(source.doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return;
      const { value, unset } = expandEnvString(node.value, env);
      for (const name of unset) {
        errors.push(
          new WaveError('env_unset', `\${${name}} is not set and has no default`, {
            location: positionAt(source, node.range?.[0] ?? 0),
            hint: `set ${name}, give a default with \${${name}:-value}, or write $\${${name}} for a literal \${${name}} (e.g. in a shell command)`,
          }),
        );
      }
      node.value = node.type === Scalar.PLAIN && WHOLE_REFERENCE.test(node.value) ? retype(value) : value;
    },
  });
  return errors;
}

/** What YAML would have read, had the expanded text been written in place. */
function retype(text: string): string | number | boolean {
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}
