import { WaveError, type SourceLocation } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';

/** A Wave feature this version does not run yet: reported by name, never as an unknown key. */
interface UnsupportedFeature {
  /** Where the key sits: a path pattern in which `*` is any key or index. */
  at: readonly string[];
  key: string;
  /** How the message names it; `{value}` stands for the offending value. */
  name: string;
  /** What the feature does, for the message. */
  what: string;
  /** When set, only these values are unsupported and the key itself is fine. */
  value?: (value: unknown) => boolean;
  /** The unsupported values, as the feature list shows them. */
  example?: string;
  /** Keys beside it that belong to the same feature and go with it. */
  with?: readonly string[];
  /** The value makes the whole parent meaningless (a contract of a type we lack): drop the parent, report nothing in it. */
  dropParent?: boolean;
  /** Nothing in a run here would use it (a setting of a feature that never runs): accepted with a warning, not an error. */
  unused?: boolean;
}

const STEP = ['steps', '*'];
const WAVE_ONLY_CONTRACT_TYPES = new Set(['typescript_interface', 'markdown_spec', 'format', 'spec_derived_test', 'source_diff', 'event_contains', 'quality_gate']);
const CONTRACTS_WE_RUN = 'the contract types run here are json_schema, test_suite, non_empty_file, llm_judge, agent_review, test_diff and test_count_baseline';
const waveOnlyContract = (value: unknown) => typeof value === 'string' && WAVE_ONLY_CONTRACT_TYPES.has(value);

const COMPACTION = 'context compaction: Wave writes a summary of a long step that nothing reads, so no step would get a different input';

/** The `runtime.timeouts` keys of a feature this version does not run: a limit of something that never happens. */
function timeoutsOf(keys: readonly string[], what: string): UnsupportedFeature[] {
  return keys.map((key) => ({ at: ['runtime', 'timeouts'], key, name: `\`runtime.timeouts.${key}\``, what, unused: true }));
}

const MANIFEST_FEATURES: readonly UnsupportedFeature[] = [
  { at: [], key: 'ontology', name: '`ontology`', what: 'project ontology injected into prompts' },
  { at: [], key: 'hooks', name: '`hooks`', what: 'lifecycle hooks' },
  { at: [], key: 'server', name: '`server`', what: 'server mode', unused: true },
  // Wave's compaction only writes a checkpoint.md that nothing reads (internal/relay): accepted, it would change no step's input.
  { at: ['runtime'], key: 'relay', name: '`runtime.relay`', what: COMPACTION, unused: true },
  { at: ['runtime'], key: 'audit', name: '`runtime.audit`', what: 'audit logs', unused: true },
  { at: ['runtime'], key: 'meta_pipeline', name: '`runtime.meta_pipeline`', what: 'meta pipelines', unused: true },
  // Without auto_route each step runs on the model its persona, step or tier names, as the warning says.
  {
    at: ['runtime', 'routing'],
    key: 'auto_route',
    name: '`runtime.routing.auto_route: {value}`',
    what: 'model routing by step complexity; each step runs on the model its step or persona names',
    value: (v) => v === true,
    example: 'true',
    with: ['complexity_map', 'default_tier'],
    unused: true,
  },
  { at: ['runtime'], key: 'routing', name: '`runtime.routing`', what: 'work-item routing', unused: true },
  { at: ['runtime'], key: 'circuit_breaker', name: '`runtime.circuit_breaker`', what: 'failure circuit breaking' },
  { at: ['runtime'], key: 'pipeline_id_hash_length', name: '`runtime.pipeline_id_hash_length`', what: 'run id format' },
  ...timeoutsOf(['relay_compaction_minutes'], 'context relay and compaction'),
  ...timeoutsOf(['meta_default_minutes'], 'meta pipelines'),
  ...timeoutsOf(['skill_cli_seconds', 'skill_http_seconds', 'skill_http_header_seconds', 'skill_publish_seconds'], 'skill installation and publishing'),
  // Wave declares it (internal/manifest/timeouts.go) but no run of Wave reads it either.
  ...timeoutsOf(['git_command_seconds'], 'a limit on git commands that Wave declares but never applies'),
  { at: ['adapters', '*'], key: 'hooks_template', name: 'adapter `hooks_template`', what: 'hook templates' },
  { at: ['personas', '*'], key: 'hooks', name: 'persona `hooks`', what: 'tool-use hooks' },
];

const PIPELINE_FEATURES: readonly UnsupportedFeature[] = [
  { at: [], key: 'chat_context', name: '`chat_context`', what: 'post-run chat sessions', unused: true },
  { at: ['input'], key: 'label_filter', name: '`input.label_filter`', what: 'issue label filters' },
  { at: ['input'], key: 'batch_size', name: '`input.batch_size`', what: 'batch input' },
  { at: ['input'], key: 'source', name: '`input.source: {value}`', what: 'input read from a file or stdin (use --input-file)', value: (v) => v !== 'cli', example: 'file | stdin' },
  { at: ['input'], key: 'path', name: '`input.path`', what: 'input read from a file (use --input-file)' },
  { at: [...STEP, 'gate'], key: 'tui_action', name: '`gate.tui_action`', what: "what Wave's terminal UI does at the gate", unused: true },
  // Wave's tiered and stacked matrices, and a child pipeline per item (use `iterate` for that).
  ...(['item_id_key', 'dependency_key', 'child_pipeline', 'input_template', 'stacked'] as const).map((key) => ({
    at: [...STEP, 'strategy'],
    key,
    name: `\`strategy.${key}\``,
    what: 'matrix items that depend on each other, or run a child pipeline',
  })),
  // A variable Wave sets that nothing reads.
  {
    at: [...STEP, 'config'],
    key: 'stop_condition',
    name: 'step `config.stop_condition`',
    what: 'a child stop condition, which sets a variable nothing in Wave reads',
    unused: true,
  },
  { at: STEP, key: 'validation', name: '`validation`', what: 'validation rules' },
  { at: STEP, key: 'contexts', name: '`contexts`', what: 'ontology context filters', unused: true },
  { at: [...STEP, 'handover'], key: 'compaction', name: '`handover.compaction`', what: COMPACTION, unused: true },
  { at: [...STEP, 'handover'], key: 'on_review_fail', name: '`handover.on_review_fail`', what: 'review-driven rework', unused: true },
  { at: [...STEP, 'handover'], key: 'target_step', name: '`handover.target_step`', what: 'review-driven rework', unused: true },
  { at: [...STEP, 'memory'], key: 'strategy', name: '`memory.strategy: {value}`', what: 'memory strategies other than fresh', value: (v) => v !== 'fresh', example: 'relay, …' },
  { at: [...STEP, 'workspace'], key: 'ref', name: '`workspace.ref`', what: 'shared workspaces' },
  { at: [...STEP, 'workspace'], key: 'root', name: '`workspace.root`', what: 'per-step workspace roots (use runtime.workspace_root)' },
  { at: [...STEP, 'exec'], key: 'type', name: '`exec.type: {value}`', what: 'slash commands', value: (v) => v === 'slash_command', example: 'slash_command', dropParent: true },
  {
    at: [...STEP, 'handover', 'contract'],
    key: 'type',
    name: 'contract type `{value}`',
    what: CONTRACTS_WE_RUN,
    value: waveOnlyContract,
    example: [...WAVE_ONLY_CONTRACT_TYPES].join(' | '),
    dropParent: true,
  },
  {
    at: [...STEP, 'handover', 'contracts', '*'],
    key: 'type',
    name: 'contract type `{value}`',
    what: CONTRACTS_WE_RUN,
    value: waveOnlyContract,
    example: [...WAVE_ONLY_CONTRACT_TYPES].join(' | '),
    dropParent: true,
  },
];

/** Every unsupported feature by name and purpose, e.g. for the compatibility list of docs/pipelines.md. */
export function unsupportedFeatures(): Array<{ kind: 'manifest' | 'pipeline'; name: string; what: string; unused: boolean }> {
  const list = (kind: 'manifest' | 'pipeline', features: readonly UnsupportedFeature[]) =>
    features.map((f) => ({ kind, name: f.name.replace('{value}', f.example ?? '…'), what: f.what, unused: f.unused ?? false }));
  return [...list('manifest', MANIFEST_FEATURES), ...list('pipeline', PIPELINE_FEATURES)];
}

/** The result of stripping: one error (or warning) per feature, and what the checks after it must not report again. */
export interface StrippedFeatures {
  errors: WaveError[];
  /** Features nothing in a run here would use: accepted, each named once. */
  warnings: WaveError[];
  suppressed: Path[];
}

/**
 * Finds every unsupported Wave feature in `root`, reports each once and removes it (in place), so the
 * schema check that follows neither reports it again nor trips over what belongs to it.
 */
export function stripUnsupportedFeatures(root: unknown, kind: 'manifest' | 'pipeline', locator: Locator): StrippedFeatures {
  const errors: WaveError[] = [];
  const warnings: WaveError[] = [];
  const suppressed: Path[] = [];
  const features = kind === 'manifest' ? MANIFEST_FEATURES : PIPELINE_FEATURES;
  // Those that set a whole mapping aside go last, so every other feature inside it is still reported.
  for (const feature of [...features.filter((f) => !f.dropParent), ...features.filter((f) => f.dropParent)]) {
    for (const [parentPath, parent] of parentsAt(root, feature.at)) {
      if (!Object.hasOwn(parent, feature.key)) continue;
      const value = parent[feature.key];
      if (feature.value && !feature.value(value)) continue;
      const path = [...parentPath, feature.key];
      const location = feature.value ? locator.locate(path) : locator.locateKey(path);
      if (feature.unused) warnings.push(unusedFeatureWarning(feature, value, location));
      else errors.push(unsupportedFeatureError(feature, value, location));
      if (feature.dropParent) {
        dropAt(root, parentPath);
        suppressed.push(parentPath);
        continue;
      }
      for (const key of [feature.key, ...(feature.with ?? [])]) {
        delete parent[key];
        suppressed.push([...parentPath, key]);
      }
    }
  }
  return { errors, warnings, suppressed };
}

function unsupportedFeatureError(feature: UnsupportedFeature, value: unknown, location: SourceLocation): WaveError {
  const name = feature.name.replace('{value}', () => shortText(value));
  return new WaveError('not_supported', `${name} (${feature.what}) is not supported yet`, {
    location,
    hint: 'Remove it to load this file; the section "Wave compatibility" of docs/pipelines.md lists what this version runs.',
  });
}

function unusedFeatureWarning(feature: UnsupportedFeature, value: unknown, location: SourceLocation): WaveError {
  const name = feature.name.replace('{value}', () => shortText(value));
  return new WaveError('not_supported', `${name} (${feature.what}) is not supported yet and is ignored: nothing in a run here uses it`, {
    location,
    hint: 'Remove it to silence this warning; `wave validate --strict` treats it as an error.',
  });
}

/** A value as it would be written, cut short. */
function shortText(value: unknown): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Every mapping matching a path pattern, with its concrete path. */
function parentsAt(root: unknown, pattern: readonly string[]): Array<[Path, Record<string, unknown>]> {
  let level: Array<[Path, unknown]> = [[[], root]];
  for (const segment of pattern) {
    const next: Array<[Path, unknown]> = [];
    for (const [path, value] of level) {
      if (segment === '*' && Array.isArray(value)) value.forEach((item, i) => next.push([[...path, i], item]));
      else if (segment === '*' && isRecord(value)) for (const [k, v] of Object.entries(value)) next.push([[...path, k], v]);
      else if (isRecord(value) && Object.hasOwn(value, segment)) next.push([[...path, segment], value[segment]]);
    }
    level = next;
  }
  return level.filter((entry): entry is [Path, Record<string, unknown>] => isRecord(entry[1]));
}

/** Removes the value at `path`; a list item becomes a hole, so later indexes keep their positions. */
function dropAt(root: unknown, path: Path): void {
  let parent: unknown = root;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<PropertyKey, unknown>)[segment];
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent[last as number] = undefined;
  else if (isRecord(parent)) delete parent[last as string];
}
