import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a run keeps a step's whole output text: `steps/<id>/output.txt` of its run folder. */
export function stepOutputFile(runDir: string, stepId: string): string {
  return join(runDir, 'steps', stepId, 'output.txt');
}

/** A step's output text as its run folder keeps it; undefined when it kept none. */
export function readStepOutput(runDir: string, stepId: string): string | undefined {
  try {
    return readFileSync(stepOutputFile(runDir, stepId), 'utf8');
  } catch {
    return undefined;
  }
}
