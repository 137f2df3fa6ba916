import type { ChildRunStarters } from './child-runs.js';
import { resumeRunWith } from './resume-run.js';
import { startRunWith } from './start-run.js';

/** The run sequence's two entries; a run started by either starts and resumes its child runs through both. */
const RUN_SEQUENCE: ChildRunStarters = {
  start: (request) => startRunWith(request, RUN_SEQUENCE),
  resume: (request) => resumeRunWith(request, RUN_SEQUENCE),
};

/**
 * `wave run`, the GitHub Action and a child run: load, plan and select, the preflights, the redactor, the record and
 * its store, the lock, the drive, and the parts a named run leaves (start-run.ts).
 */
export const startRun = RUN_SEQUENCE.start;

/** `wave resume`: finishes a failed, cancelled or killed run without re-running its completed steps (resume-run.ts). */
export const resumeRun = RUN_SEQUENCE.resume;
