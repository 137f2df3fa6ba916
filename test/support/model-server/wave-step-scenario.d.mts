// Types of the `wavestep` scenario helpers (wave-step-scenario.mjs), for the TypeScript tests.
export const PASSING_REVIEW: { verdict: string; issues: unknown[]; suggestions: unknown[]; confidence: number; summary: string };
export const FULL_SCORE: { score: number; reasons: string[] };
export function currentTurn(body: unknown): { task: string; toolResults: number };
export function requestedFiles(task: string): { files: Array<{ path: string; content: string }>; answer?: string };
