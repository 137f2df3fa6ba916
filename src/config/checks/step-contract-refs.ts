import { isRecord, type Path } from '../load/value-path.js';

/** A step's handover contracts as written (`contract`, then each of `contracts`), each with its path in the pipeline. */
export function stepContractRefs(step: Record<string, unknown>, at: Path): Array<[unknown, Path]> {
  const handover = isRecord(step.handover) ? step.handover : {};
  const contracts: Array<[unknown, Path]> = [[handover.contract, [...at, 'handover', 'contract']]];
  if (Array.isArray(handover.contracts)) handover.contracts.forEach((c, i) => contracts.push([c, [...at, 'handover', 'contracts', i]]));
  return contracts;
}

/** How a contract is named in messages: its number among the step's contracts (a lone `contract` is 1). */
export function contractNumber(path: Path): number {
  const last = path.at(-1);
  return typeof last === 'number' ? last + 1 : 1;
}
