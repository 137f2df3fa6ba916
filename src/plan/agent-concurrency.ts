import type { ResolvedPersona } from '../core/resolved-adapter.js';

/** Wave caps the number it states (maxConcurrentAgentsCap in its claude adapter); the schema refuses more anyway. */
const MAX_CONCURRENT_AGENTS = 10;

/** Wave's concurrency hint (buildConcurrencyHint): what the persona is told when a step allows more than one sub-agent. */
export function concurrencySection(maxConcurrentAgents: number | undefined): string | undefined {
  if (maxConcurrentAgents === undefined || maxConcurrentAgents <= 1) return undefined;
  const n = Math.min(maxConcurrentAgents, MAX_CONCURRENT_AGENTS);
  return `## Agent Concurrency\n\nYou may spawn up to ${n} concurrent sub-agents or workers for this step.\n`;
}

/** What a step's max_concurrent_agents tells its persona, as --dry-run shows it. */
export function describeConcurrency(maxConcurrentAgents: number): string {
  return maxConcurrentAgents > 1
    ? `the persona may run up to ${Math.min(maxConcurrentAgents, MAX_CONCURRENT_AGENTS)} sub-agents at once (said in its system prompt)`
    : 'one at a time (nothing is added to the prompt)';
}

/** The step's persona with the hint after its prompt, as Wave appends it to the persona's agent file; unchanged without one. */
export function withConcurrencySection(persona: ResolvedPersona, maxConcurrentAgents: number | undefined): ResolvedPersona {
  const hint = concurrencySection(maxConcurrentAgents);
  if (!hint) return persona;
  const prompt = persona.systemPrompt.trimEnd();
  return { ...persona, systemPrompt: prompt === '' ? hint : `${prompt}\n\n${hint}` };
}
