/** How much of earlier rounds a thread step is given (`thread.fidelity`): its own module, so reading events builds no pipeline schema. */
export const FIDELITIES = ['full', 'compact', 'summary', 'fresh'] as const;
export type Fidelity = (typeof FIDELITIES)[number];
