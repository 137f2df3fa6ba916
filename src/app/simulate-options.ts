/** `wave run --simulate` and `--simulate-outputs` as a run request, its recorded options and its children's requests carry them. */
export interface SimulateRequest {
  /** Agent and model attempts are simulated (engine/attempt/simulate), gates approved at once. */
  simulate?: boolean;
  /** The absolute folder of fixtures by step id the simulated attempts take their files and answers from. */
  simulateOutputs?: string;
}

/** Only the simulate fields that are set: a live run's options and requests carry none. */
export function simulateOptionsOf({ simulate, simulateOutputs }: SimulateRequest): SimulateRequest {
  if (!simulate) return {};
  return { simulate: true, ...(simulateOutputs !== undefined ? { simulateOutputs } : {}) };
}
