import { WaveError } from '../../core/errors/errors.js';
import { runsCommand } from '../schema/script-step.js';
import type { Locator } from '../load/locator.js';
import { contractNumber, stepContractRefs } from './step-contract-refs.js';
import { isRecord, type Path } from '../load/value-path.js';
import { isBuiltinAdapter } from '../schema/wave-builtin-adapters.js';

/**
 * What in one step needs a wave.yaml when none was found (from `searchedFrom` up): a persona (the step's, a reviewer's), an adapter (the step's,
 * a contract's, its extract's), or, for a command step, a model to ask for its extract or llm_judge contract.
 */
export function manifestNeedErrors(step: Record<string, unknown>, index: number, label: string, searchedFrom: string, locator: Locator): WaveError[] {
  const at: Path = ['steps', index];
  const missing = `no wave.yaml was found in ${searchedFrom} or any parent folder`;
  const errors: WaveError[] = [];
  if (typeof step.persona === 'string') {
    errors.push(
      new WaveError('unknown_persona', `${label} names persona \`${step.persona}\`, but ${missing} to declare it`, {
        location: locator.locate([...at, 'persona']),
        hint: 'Run `wave init` to create a wave.yaml and declare the persona there, or pass -m <path/to/wave.yaml>.',
      }),
    );
  }
  const adapterRef = (value: unknown, who: string, path: Path) => {
    if (typeof value !== 'string' || isBuiltinAdapter(value)) return;
    const location = locator.locate(path);
    errors.push(
      new WaveError('unknown_adapter', `${who} names adapter \`${value}\`, but ${missing} to declare it`, {
        location,
        hint: 'Run `wave init` to create a wave.yaml and declare the adapter there, or pass -m <path/to/wave.yaml>.',
      }),
    );
  };
  adapterRef(step.adapter, label, [...at, 'adapter']);
  const isCommand = runsCommand(step);
  // A command has no model of its own: its extract or judge asks the adapter the manifest's `extract:` names.
  const modelNeed = (spec: Record<string, unknown>, who: string, path: Path) => {
    if (spec.adapter !== undefined) return adapterRef(spec.adapter, who, [...path, 'adapter']);
    if (!isCommand) return;
    errors.push(
      new WaveError('missing_field', `${who} needs a model to ask, and a command step has none: it names no adapter, and ${missing} to give a default`, {
        location: locator.locate(path),
        hint: 'Name an adapter declared in a wave.yaml (`wave init` creates one), or pass -m <path/to/wave.yaml>.',
      }),
    );
  };
  if (isRecord(step.extract)) modelNeed(step.extract, `${label} extract`, [...at, 'extract']);
  for (const [contract, path] of stepContractRefs(step, at)) {
    if (!isRecord(contract)) continue;
    const who = `${label} contract ${contractNumber(path)}`;
    if (contract.type === 'agent_review' && typeof contract.persona === 'string') {
      errors.push(
        new WaveError('unknown_persona', `${who} (agent_review) names reviewer persona \`${contract.persona}\`, but ${missing} to declare it`, {
          location: locator.locate([...path, 'persona']),
          hint: 'Run `wave init` to create a wave.yaml and declare the persona there, or pass -m <path/to/wave.yaml>.',
        }),
      );
    }
    if (contract.type === 'llm_judge') modelNeed(contract, `${who} (llm_judge)`, path);
    else adapterRef(contract.adapter, who, [...path, 'adapter']);
  }
  return errors;
}
