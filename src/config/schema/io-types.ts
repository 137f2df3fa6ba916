import { z } from 'zod';

/**
 * Wave's pipeline I/O types (docs/adr/010-pipeline-io-protocol.md): `string`, free text, or a name of its shared
 * schema registry (internal/contract/schemas/shared), for `input.type` and `pipeline_outputs.*.type`.
 */
export const IO_TYPES = ['string', 'issue_ref', 'pr_ref', 'branch_ref', 'spec_ref', 'plan_ref', 'findings_report', 'scope_result', 'workspace_ref', 'work_item_ref'] as const;
export type IoType = (typeof IO_TYPES)[number];

export const IoTypeSchema = z.enum(IO_TYPES);

const FORGES = ['github', 'gitlab', 'gitea', 'forgejo', 'bitbucket', 'local'];
const NUMBER = '[1-9][0-9]*';
const REPO = '[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+';
/** A forge URL: host, then owner (or group path) and repository, then the kind's own path and the number. */
const forgeUrl = (kinds: string) => new RegExp(`^https?://[^/\\s]+/(?:[^/\\s]+/)+(?:-/)?(?:${kinds})/${NUMBER}/?(?:[?#]\\S*)?$`);

/** What an input of a type may be: text forms, and the keys of its JSON object form (Wave's registry schema). */
interface InputShape {
  /** What it is, for messages ("an issue reference: …"). */
  what: string;
  text: readonly RegExp[];
  required: readonly string[];
  /** Every key the object may have, when the registry's schema allows no others. */
  allowed?: readonly string[];
}

// The text forms are those Wave's own issue and PR pipelines document for their input (owner/repo#N, owner/repo N,
// a URL, #N or N for the current repository); the JSON object is the registry's shape, as Wave's web UI sends it.
const SHAPES: Record<Exclude<IoType, 'string'>, InputShape> = {
  issue_ref: {
    what: 'an issue reference: owner/repo#N, owner/repo N, an issue URL, #N or N, or an issue_ref JSON object (forge, owner, repo, number)',
    text: [forgeUrl('issues'), new RegExp(`^${REPO}(?:#|\\s+#?)${NUMBER}$`), new RegExp(`^#?${NUMBER}$`)],
    required: ['forge', 'owner', 'repo', 'number'],
    allowed: ['forge', 'owner', 'repo', 'number', 'url', 'title'],
  },
  pr_ref: {
    what: 'a pull request reference: owner/repo#N, owner/repo N, owner/repo/N, a pull request URL, #N or N, or a pr_ref JSON object (forge, owner, repo, number, branch)',
    text: [forgeUrl('pull|pulls|pull-requests|merge_requests'), new RegExp(`^${REPO}(?:#|/|\\s+#?)${NUMBER}$`), new RegExp(`^#?${NUMBER}$`)],
    required: ['forge', 'owner', 'repo', 'number', 'branch'],
    allowed: ['forge', 'owner', 'repo', 'number', 'url', 'branch', 'head_sha', 'title', 'issue_number'],
  },
  branch_ref: { what: 'a branch_ref JSON object (name)', text: [], required: ['name'], allowed: ['name', 'base', 'head_sha'] },
  spec_ref: { what: 'a spec_ref JSON object (path)', text: [], required: ['path'], allowed: ['path', 'title', 'feature_id'] },
  plan_ref: { what: 'a plan_ref JSON object (tasks)', text: [], required: ['tasks'] },
  findings_report: { what: 'a findings_report JSON object (items)', text: [], required: ['items'] },
  scope_result: { what: 'a scope_result JSON object (child_issues)', text: [], required: ['child_issues'] },
  workspace_ref: { what: 'a workspace_ref JSON object (root)', text: [], required: ['root'], allowed: ['root', 'worktree_path', 'branch'] },
  work_item_ref: {
    what: 'a work_item_ref JSON object (source, url, title, state, created_at)',
    text: [],
    required: ['source', 'url', 'title', 'state', 'created_at'],
    allowed: ['source', 'forge_host', 'owner', 'repo', 'number', 'url', 'title', 'labels', 'state', 'created_at'],
  },
};

/** What an input of `type` must be, for messages and `--help`; undefined for free text. */
export function inputTypeShape(type: IoType): string | undefined {
  return type === 'string' ? undefined : SHAPES[type].what;
}

/** Why `text` is not an input of `type` (a reason to follow "expected …; "), or undefined when it is one. */
export function inputTypeProblem(type: IoType, text: string): string | undefined {
  if (type === 'string') return undefined;
  const shape = SHAPES[type];
  const trimmed = text.trim();
  if (shape.text.some((form) => form.test(trimmed))) return undefined;
  if (!/^[[{]/.test(trimmed)) return trimmed === '' ? 'no input was given' : 'it is none of the accepted forms';
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return `it starts like JSON but does not parse (${(error as Error).message})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'it is JSON but not an object';
  return objectProblem(type, shape, value as Record<string, unknown>);
}

function objectProblem(type: IoType, shape: InputShape, value: Record<string, unknown>): string | undefined {
  const missing = shape.required.filter((key) => !Object.hasOwn(value, key));
  if (missing.length) return `the JSON object lacks ${missing.map((k) => `\`${k}\``).join(', ')}`;
  const extra = shape.allowed ? Object.keys(value).filter((key) => !shape.allowed!.includes(key)) : [];
  if (extra.length) return `${type} has no ${extra.map((k) => `\`${k}\``).join(', ')}`;
  if (type !== 'issue_ref' && type !== 'pr_ref') return undefined;
  if (!FORGES.includes(value.forge as string)) return `\`forge\` must be one of ${FORGES.join(', ')}`;
  for (const key of ['owner', 'repo', ...(type === 'pr_ref' ? ['branch'] : [])]) {
    if (typeof value[key] !== 'string' || value[key] === '') return `\`${key}\` must be non-empty text`;
  }
  if (!Number.isInteger(value.number) || (value.number as number) < 1) return '`number` must be a whole number from 1';
  return undefined;
}

/** The JSON types `input.schema.type` may name: the input must parse as one (`string`: any text). */
export const INPUT_SCHEMA_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'] as const;
export type InputSchemaType = (typeof INPUT_SCHEMA_TYPES)[number];

/** Why `text` is not a JSON value of `type`, or undefined when it is one. */
export function inputSchemaTypeProblem(type: InputSchemaType, text: string): string | undefined {
  if (type === 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim() === '' ? 'no input was given' : 'it is not JSON';
  }
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  if (type === 'integer' ? Number.isInteger(value) : actual === type) return undefined;
  return type === 'integer' && actual === 'number' ? 'it is a number with a fraction' : `it is JSON of type ${actual}`;
}
