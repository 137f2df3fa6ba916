import { Scalar, visit } from 'yaml';
import { WaveError } from '../../core/errors/errors.js';
import { Redactor } from '../../redact.js';
import { positionAt, type YamlSource } from './yaml-source.js';

// `$${VAR}` (escaped), `${VAR}` or `${VAR:-default}`.
const REFERENCE = /(\$?)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;

/** Variables taken from the environment by `${VAR}` references: name -> value (never a literal default). */
export type EnvTaken = Record<string, string>;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string; `$${VAR}` stays as a literal `${VAR}`. `taken` lists the
 * variables whose environment value went into the result, so the run can redact them.
 */
export function expandEnvString(text: string, env: NodeJS.ProcessEnv): { value: string; unset: string[]; taken: EnvTaken } {
  const unset: string[] = [];
  const taken: EnvTaken = {};
  const value = text.replace(REFERENCE, (whole, escape: string, name: string, fallback: string | undefined) => {
    if (escape) return whole.slice(1);
    const current = env[name];
    if (current) taken[name] = current;
    // Like the shell's `:-`, an empty variable also takes the default.
    if (fallback !== undefined) return current ? current : fallback;
    if (current === undefined) {
      unset.push(name);
      return whole;
    }
    return current;
  });
  return { value, unset, taken };
}

/**
 * Expands environment references in every string scalar value of the document (never in keys).
 * A plain scalar that was a single reference is re-typed, so `max_concurrency: ${N:-4}` is a number.
 * The variables whose values went in are added to `taken` (the run's redactor hides them).
 */
export function expandEnvInDocument(source: YamlSource, env: NodeJS.ProcessEnv, taken: EnvTaken = {}): WaveError[] {
  const errors: WaveError[] = [];
  visit(source.doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return;
      const { value, unset, taken: here } = expandEnvString(node.value, env);
      Object.assign(taken, here);
      for (const name of unset) {
        errors.push(
          new WaveError('env_unset', `\${${name}} is not set and has no default`, {
            location: positionAt(source, node.range?.[0] ?? 0),
            hint: `Set ${name}, give a default with \${${name}:-value}, or write $\${${name}} for a literal \${${name}} (e.g. in a shell command).`,
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

// describeValue (zod-issues.ts) quotes a long value cut to this many characters.
const QUOTED_VALUE_CHARS = 40;

/** The errors with every value taken from the environment hidden: a problem report may quote one (or its start). */
export function hideTakenValues(errors: WaveError[], taken: EnvTaken): WaveError[] {
  const values = Object.values(taken);
  if (values.length === 0) return errors;
  const starts = values.filter((value) => value.length > QUOTED_VALUE_CHARS).map((value) => value.slice(0, QUOTED_VALUE_CHARS));
  const redactor = new Redactor([...values, ...starts], { tokenShapes: false });
  return errors.map((error) => {
    const message = redactor.redact(error.message);
    const hint = error.hint === undefined ? undefined : redactor.redact(error.hint);
    if (message === error.message && hint === error.hint) return error;
    return new WaveError(error.code, message, { hint, location: error.location, cause: error.cause });
  });
}
