import { WaveError } from '../../core/errors/errors.js';
import { missingFile } from '../load/file-refs.js';
import { manifestNeedErrors } from './manifest-needs.js';
import { stepLabel } from './raw-step.js';
import { scriptStepErrors } from './script-step-checks.js';
import { runsCommand } from '../schema/script-step.js';
import { contractNumber, stepContractRefs } from './step-contract-refs.js';
import { checkSchemaSource, type SchemaInspector } from './schema-checks.js';
import { reviewContractErrors } from './review-checks.js';
import { strayTestKeys } from './test-contract-checks.js';
import type { Locator } from '../load/locator.js';
import { everyForge, personaRefErrors, type ForgeResolution } from '../load/forge-personas.js';
import { didYouMean } from './suggest.js';
import { isBuiltinAdapter } from '../schema/wave-builtin-adapters.js';
import { isRecord, type Path } from '../load/value-path.js';

/** What a pipeline check needs to know of the manifest; an absent list means "unknown, do not check". */
export interface ManifestView {
  /** The manifest's folder: every relative path resolves from here. */
  dir: string;
  personas?: readonly string[];
  adapters?: readonly string[];
  /** The manifest's scalar `project` facts, for `{{ project.<key> }}` in skill and tool names. */
  project?: Readonly<Record<string, string>>;
  /** Checks JSON Schemas of contracts and extracts when given (it loads ajv, which only pipeline readers need). */
  inspectSchema?: SchemaInspector;
  /** What `{{ forge.* }}` in persona names may resolve to; absent: every forge type, from a project without a remote. */
  forge?: ForgeResolution;
  /** Set when no wave.yaml was found (the built-in manifest): what needs one is reported as missing it, searched from this folder. */
  noManifest?: { searchedFrom: string };
}

/** Problems inside one step that need the manifest: personas, adapters, exec, and files it names. */
export function checkStepReferences(step: Record<string, unknown>, index: number, view: ManifestView, locator: Locator): WaveError[] {
  const at: Path = ['steps', index];
  const label = stepLabel(step, index);
  const errors: WaveError[] = [];
  const push = (error: WaveError | undefined) => error && errors.push(error);

  if (view.noManifest) errors.push(...manifestNeedErrors(step, index, label, view.noManifest.searchedFrom, locator));
  if (typeof step.persona === 'string' && view.personas) {
    const forge = view.forge ?? everyForge({ host: '', owner: '', repo: '' }, undefined);
    errors.push(...personaRefErrors(step.persona, label, view.personas, forge, locator.locate([...at, 'persona'])));
  }
  const adapterRef = (value: unknown, path: Path) => {
    if (typeof value !== 'string' || !view.adapters || view.adapters.includes(value) || isBuiltinAdapter(value)) return;
    errors.push(
      new WaveError('unknown_adapter', `${label} names adapter \`${value}\`, which the manifest does not declare`, {
        location: locator.locate(path),
        hint: didYouMean(value, view.adapters, 'Declared adapters'),
      }),
    );
  };
  adapterRef(step.adapter, [...at, 'adapter']);

  if (isRecord(step.exec)) errors.push(...checkExec(step, label, at, view, locator));
  errors.push(...scriptStepErrors(step, label, at, locator));

  const mounts = isRecord(step.workspace) ? step.workspace.mount : undefined;
  if (Array.isArray(mounts)) {
    mounts.forEach((mount, i) => {
      const path = [...at, 'workspace', 'mount', i, 'source'];
      if (isRecord(mount)) push(missingFile(mount.source, view.dir, `${label} mounts`, locator.locate(path)));
    });
  }
  const contracts = stepContractRefs(step, at);
  if (isRecord(step.extract)) contracts.push([step.extract, [...at, 'extract']]);
  for (const [contract, path] of contracts) {
    if (!isRecord(contract)) continue;
    push(missingFile(contract.schema_path, view.dir, `${label} names schema_path`, locator.locate([...path, 'schema_path'])));
    adapterRef(contract.adapter, [...path, 'adapter']);
    const isExtract = path.at(-1) === 'extract';
    if (!isExtract) {
      const scope = { stepPersona: step.persona, ...(view.personas && !view.noManifest ? { personas: view.personas } : {}), projectRoot: view.dir, locator };
      const who = `${label} contract ${contractNumber(path)}`;
      errors.push(...reviewContractErrors(contract, path, who, scope), ...strayTestKeys(contract, path, who, locator));
    }
    // Wave's `validate: false` switches a contract off; its schema is never read.
    if (view.inspectSchema && (isExtract || (contract.type === 'json_schema' && contract.validate !== false))) {
      const what = isExtract ? `${label} extract` : `${label} contract ${contractNumber(path)} (json_schema)`;
      errors.push(...checkSchemaSource(contract, path, what, { manifestDir: view.dir, locator, inspect: view.inspectSchema }));
    }
  }
  const memory = isRecord(step.memory) ? step.memory : {};
  if (Array.isArray(memory.inject_artifacts)) {
    memory.inject_artifacts.forEach((ref, i) => {
      const path = [...at, 'memory', 'inject_artifacts', i, 'schema_path'];
      if (isRecord(ref)) push(missingFile(ref.schema_path, view.dir, `${label} names schema_path`, locator.locate(path)));
    });
  }
  return errors;
}

/** A prompt needs someone to run it; `exec` needs exactly one of source and source_path. */
function checkExec(step: Record<string, unknown>, label: string, at: Path, view: ManifestView, locator: Locator): WaveError[] {
  const exec = step.exec as Record<string, unknown>;
  const errors: WaveError[] = [];
  // Wave's `type: command` or `script` makes the step a command whatever its `exec` says (scriptStepErrors reports the clash).
  const type = runsCommand(step) ? 'command' : (exec.type ?? 'prompt');
  if (type === 'prompt' && step.persona === undefined && step.adapter === undefined) {
    const personas = view.personas?.length ? ` (declared: ${view.personas.map((p) => `\`${p}\``).join(', ')})` : '';
    errors.push(
      new WaveError('missing_field', `${label} runs a prompt but names neither \`persona\` nor \`adapter\``, {
        location: locator.locate(at),
        hint: `Add \`persona: <name>\`${personas}, or set \`exec.type: command\` to run a shell command.`,
      }),
    );
  }
  const hasSource = exec.source !== undefined;
  const hasPath = exec.source_path !== undefined;
  if (hasSource && hasPath) {
    errors.push(
      new WaveError('conflicting_fields', `\`exec\` of ${label} sets both \`source\` and \`source_path\``, {
        location: locator.locateKey([...at, 'exec', 'source_path']),
        hint: 'Keep one: `source` holds the prompt or command inline, `source_path` names a file holding it.',
      }),
    );
  } else if (!hasSource && !hasPath) {
    errors.push(
      new WaveError('missing_field', `\`exec\` of ${label} needs \`source\` or \`source_path\``, {
        location: locator.locate([...at, 'exec']),
        hint: 'Set `source` to the prompt or command inline, or `source_path` to a file holding it (relative to wave.yaml).',
      }),
    );
  }
  const missing = missingFile(exec.source_path, view.dir, `${label} names source_path`, locator.locate([...at, 'exec', 'source_path']));
  if (missing) errors.push(missing);
  return errors;
}
