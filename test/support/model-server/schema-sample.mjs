// A small valid instance of a JSON Schema, for scripted answers that must pass a json_schema contract: every
// property present (so `dependencies` hold), arrays at their minimum length (at least one item), strings of the
// format, pattern and length asked for, numbers within their bounds.

/** Deepest nesting sampled; past it objects keep only their required properties and arrays stay empty when they may. */
const MAX_DEPTH = 8;

/** A sample valid against `schema`; `root` resolves local `$ref`s (`#/definitions/…`, `#/$defs/…`). */
export function sampleOf(schema, root = schema, depth = 0) {
  if (schema === true || schema === undefined || schema === null) return {};
  if (schema.$ref) return sampleOf(resolveRef(schema.$ref, root), root, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.allOf)) return schema.allOf.reduce((merged, part) => mergeSamples(merged, sampleOf(part, root, depth + 1)), sampleOf(withoutAllOf(schema), root, depth));
  const choice = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(choice) && choice.length) return sampleOf({ ...withoutChoices(schema), ...choice[0] }, root, depth);
  switch (typeOf(schema)) {
    case 'object':
      return objectSample(schema, root, depth);
    case 'array':
      return arraySample(schema, root, depth);
    case 'string':
      return stringSample(schema);
    case 'integer':
      return Math.ceil(numberSample(schema));
    case 'number':
      return numberSample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

function typeOf(schema) {
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? schema.type[0]) : schema.type;
  if (type) return type;
  if (schema.properties || schema.required) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function resolveRef(ref, root) {
  if (!ref.startsWith('#')) return {};
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
}

const withoutAllOf = ({ allOf: _allOf, ...rest }) => rest;
const withoutChoices = ({ oneOf: _oneOf, anyOf: _anyOf, ...rest }) => rest;

function mergeSamples(a, b) {
  const bothObjects = [a, b].every((v) => v && typeof v === 'object' && !Array.isArray(v));
  return bothObjects ? { ...a, ...b } : b;
}

function objectSample(schema, root, depth) {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = depth < MAX_DEPTH ? [...new Set([...Object.keys(properties), ...required])] : [...required];
  const sample = {};
  for (const name of names) sample[name] = sampleOf(properties[name] ?? {}, root, depth + 1);
  const extraNeeded = (schema.minProperties ?? 0) - names.length;
  for (let i = 0; i < extraNeeded; i++) sample[`extra_${i}`] = sampleOf(schema.additionalProperties ?? {}, root, depth + 1);
  return sample;
}

function arraySample(schema, root, depth) {
  const wanted = Math.max(schema.minItems ?? 0, depth < MAX_DEPTH ? 1 : 0);
  const count = Math.min(wanted, schema.maxItems ?? wanted);
  const itemSchema = Array.isArray(schema.prefixItems) ? undefined : Array.isArray(schema.items) ? undefined : schema.items;
  const items = [];
  for (let i = 0; i < count; i++) {
    const tupleSchema = schema.prefixItems?.[i] ?? (Array.isArray(schema.items) ? schema.items[i] : undefined);
    const item = sampleOf(tupleSchema ?? itemSchema ?? {}, root, depth + 1);
    // Unique items stay unique: a string item gets its index appended when it would repeat.
    items.push(schema.uniqueItems && typeof item === 'string' && i > 0 ? `${item}${i}` : item);
  }
  return items;
}

/** Sample strings of the formats JSON Schema names. */
const FORMATS = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function stringSample(schema) {
  let text = schema.pattern ? patternSample(schema.pattern) : (FORMATS[schema.format] ?? 'sample');
  const min = schema.minLength ?? 0;
  if (text.length < min && !schema.pattern) text = text.padEnd(min, 'x');
  if (schema.maxLength !== undefined && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
  return text;
}

function numberSample(schema) {
  if (typeof schema.minimum === 'number') return schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number') return Math.min(0, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number') return Math.min(0, schema.exclusiveMaximum - 1);
  return 0;
}

/** One character each escape or class stands for. */
const CLASS_CHARS = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

/**
 * A string matching a simple regular expression: anchors, literals, escapes, character classes, groups without
 * alternation, and the quantifiers ?, *, +, {n} and {n,m} (each repeated its minimum, at least once unless optional).
 */
export function patternSample(pattern) {
  let out = '';
  let i = 0;
  let last = '';
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '^' || c === '$') {
      i++;
      continue;
    }
    let atom;
    if (c === '\\') {
      const next = pattern[i + 1];
      atom = CLASS_CHARS[next] ?? next;
      i += 2;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      atom = classSample(pattern.slice(i + 1, end));
      i = end + 1;
    } else if (c === '(') {
      const end = pattern.indexOf(')', i);
      atom = patternSample(
        pattern
          .slice(i + 1, end)
          .replace(/^\?:/, '')
          .split('|')[0],
      );
      i = end + 1;
    } else if (c === '.') {
      atom = 'a';
      i++;
    } else if ('?*+{'.includes(c)) {
      // A quantifier applies to the atom just written: repeat or remove it.
      const { times, length } = quantifier(pattern.slice(i));
      out = out.slice(0, out.length - last.length) + last.repeat(times);
      i += length;
      last = '';
      continue;
    } else {
      atom = c;
      i++;
    }
    out += atom;
    last = atom;
  }
  return out;
}

function classSample(body) {
  if (body.startsWith('^')) {
    // A negated class: the first of a few ordinary characters it does not exclude.
    return ['a', 'x', '0', '_'].find((ch) => !body.includes(ch)) ?? 'z';
  }
  if (body[0] === '\\') return CLASS_CHARS[body[1]] ?? body[1];
  return body[0];
}

function quantifier(text) {
  if (text[0] === '?' || text[0] === '*') return { times: 0, length: text[1] === '?' ? 2 : 1 };
  if (text[0] === '+') return { times: 1, length: text[1] === '?' ? 2 : 1 };
  const match = /^\{(\d+)(?:,(\d*))?\}/.exec(text);
  return match ? { times: Math.max(1, Number(match[1])), length: match[0].length } : { times: 1, length: 1 };
}
