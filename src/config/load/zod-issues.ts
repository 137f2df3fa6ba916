import type { z } from 'zod';
import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from './locator.js';
import { descriptionAt, keysAllowedAt, valuesAllowedAt } from '../schema/schema-walk.js';
import { closestMatch, didYouMean } from '../checks/suggest.js';
import { formatPath, isRecord, startsWith, valueAt, type Path } from './value-path.js';

type Issue = z.core.$ZodIssue;

/** What the mapping needs to turn schema issues into located, explained WaveErrors. */
export interface IssueContext {
  schema: z.ZodType;
  /** The value that was parsed. */
  root: unknown;
  locator: Locator;
  /** Paths already reported (unsupported features): issues under them are dropped. */
  suppressed: readonly Path[];
}

/** Converts zod issues into WaveErrors: unknown_key, missing_field or wrong_type, each at its node. */
export function issuesToErrors(issues: readonly Issue[], context: IssueContext): WaveError[] {
  const errors: WaveError[] = [];
  for (const issue of issues) {
    const path = issue.path as Path;
    if (context.suppressed.some((prefix) => startsWith(path, prefix))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        if (context.suppressed.some((prefix) => startsWith([...path, key], prefix))) continue;
        errors.push(unknownKey(path, key, context));
      }
    } else if (issue.code === 'invalid_union') {
      errors.push(...unionErrors(issue, context));
    } else if (isMissing(path, context.root)) {
      errors.push(missingField(path, context));
    } else {
      errors.push(wrongType(issue, path, context));
    }
  }
  return errors;
}

function unknownKey(path: Path, key: string, context: IssueContext): WaveError {
  const allowed = keysAllowedAt(context.schema, path);
  return new WaveError('unknown_key', `unknown key \`${key}\` in ${formatPath(path)}`, {
    location: context.locator.locateKey([...path, key]),
    hint: didYouMean(key, allowed, 'Keys allowed here'),
  });
}

/** A required key that is absent from its (present) parent mapping. */
function isMissing(path: Path, root: unknown): boolean {
  if (path.length === 0) return false;
  const parent = valueAt(root, path.slice(0, -1));
  return isRecord(parent) && !Object.hasOwn(parent, String(path[path.length - 1]));
}

function missingField(path: Path, context: IssueContext): WaveError {
  const parentPath = path.slice(0, -1);
  const key = String(path[path.length - 1]);
  const values = valuesAllowedAt(context.schema, path);
  const example = values.length === 1 ? `\`${key}: ${values[0]}\`` : `\`${key}:\``;
  const description = descriptionAt(context.schema, path);
  return new WaveError('missing_field', `\`${key}\` is required in ${formatPath(parentPath)}`, {
    location: context.locator.locate(parentPath),
    hint: `Add ${example}${description ? ` (${description.replace(/\.$/, '')})` : ''}.`,
  });
}

function wrongType(issue: Issue, path: Path, context: IssueContext): WaveError {
  const actual = valueAt(context.root, path);
  const where = formatPath(path);
  const location = context.locator.locate(path);
  const description = descriptionAt(context.schema, path);
  switch (issue.code) {
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      const suggestion = typeof actual === 'string' ? closestMatch(actual, allowed) : undefined;
      const list = allowed.map((v) => `\`${v}\``).join(', ');
      return new WaveError('wrong_type', `${where} is ${describeValue(actual)}, which is not allowed`, {
        location,
        hint: `${suggestion ? `Did you mean \`${suggestion}\`? ` : ''}Allowed: ${list}.`,
      });
    }
    case 'invalid_type':
      return new WaveError('wrong_type', `${where} must be ${typeName(issue.expected)}, not ${describeValue(actual)}`, {
        location,
        hint: description ?? `Write ${typeName(issue.expected)} here.`,
      });
    case 'too_small':
    case 'too_big': {
      const bound = boundText(issue);
      return new WaveError('wrong_type', `${where} must be ${bound}, not ${describeValue(actual)}`, {
        location,
        hint: `Use ${bound}.`,
      });
    }
    case 'invalid_format':
      return new WaveError('wrong_type', `${where} is ${describeValue(actual)}, which is not valid: ${issue.message}`, {
        location,
        hint: description ?? issue.message,
      });
    default:
      return new WaveError('wrong_type', `${where}: ${issue.message}`, { location, hint: description });
  }
}

/** A union failed: report the branch that matched the value's type, else list the accepted types. */
function unionErrors(issue: Extract<Issue, { code: 'invalid_union' }>, context: IssueContext): WaveError[] {
  const path = issue.path as Path;
  const base = path.length;
  const branches = issue.errors.map((branch) => branch.map((i) => ({ ...i, path: [...path, ...i.path] })));
  const typed = branches.find((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === base));
  if (typed && typed.length > 0) return issuesToErrors(typed, context);
  const expected = [...new Set(branches.flat().flatMap((i) => (i.code === 'invalid_type' ? [typeName(i.expected)] : [])))];
  const actual = valueAt(context.root, path);
  if (isMissing(path, context.root)) return [missingField(path, context)];
  return [
    new WaveError('wrong_type', `${formatPath(path)} must be ${expected.join(' or ') || 'something else'}, not ${describeValue(actual)}`, {
      location: context.locator.locate(path),
      hint: descriptionAt(context.schema, path) ?? `Write ${expected.join(' or ')} here.`,
    }),
  ];
}

/** The allowed range, phrased to follow "must be" or "use". */
function boundText(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const small = issue.code === 'too_small';
  const atLeast = small ? 'at least' : 'at most';
  if (issue.origin === 'array') return `a list of ${atLeast} ${limit} item${limit === 1 ? '' : 's'}`;
  if (issue.origin === 'string') return `a text of ${atLeast} ${limit} characters`;
  if (issue.inclusive) return `a number ${atLeast} ${limit}`;
  return `a number ${small ? 'greater' : 'less'} than ${limit}`;
}

/** A reader's name for a zod type name. */
function typeName(expected: string): string {
  const names: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    object: 'a mapping',
    record: 'a mapping',
    array: 'a list',
  };
  return names[expected] ?? expected;
}

/** A short description of a parsed value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'empty';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  return Object.keys(value).length === 0 ? 'an empty mapping' : 'a mapping';
}
