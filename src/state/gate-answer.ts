import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';

/** A person's answer to a waiting gate (`wave approve` / `wave reject`), left in the run folder for the run to take. */
export interface GateAnswer {
  /** The choice taken; absent: approve a gate without choices. */
  key?: string;
  /** `wave reject` of a gate without a `_fail` choice. */
  reject?: boolean;
  text?: string;
  /** When it was given. */
  at: string;
}

/** Where the answer to step `stepId`'s gate lies in run folder `runDir`. */
export function gateAnswerFile(runDir: string, stepId: string): string {
  return join(runDir, 'gates', `${stepId}.json`);
}

/** Leaves an answer for the run (written whole: the run never reads half of one). */
export function writeGateAnswer(runDir: string, stepId: string, answer: GateAnswer): void {
  mkdirSync(join(runDir, 'gates'), { recursive: true });
  writeFileAtomicSync(gateAnswerFile(runDir, stepId), `${JSON.stringify(answer)}\n`);
}

/** The answer waiting for step `stepId`'s gate, or undefined when there is none (or it is not one). */
export function readGateAnswer(runDir: string, stepId: string): GateAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(gateAnswerFile(runDir, stepId), 'utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { key, reject, text, at } = value as Record<string, unknown>;
  if (typeof at !== 'string' || (key !== undefined && typeof key !== 'string') || (text !== undefined && typeof text !== 'string')) return undefined;
  return { at, ...(typeof key === 'string' ? { key } : {}), ...(reject === true ? { reject } : {}), ...(typeof text === 'string' ? { text } : {}) };
}

/** Removes a taken answer, so a later wait at the same gate (`wave resume --from-step`) asks again. */
export function removeGateAnswer(runDir: string, stepId: string): void {
  rmSync(gateAnswerFile(runDir, stepId), { force: true });
}
