import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SimulateRequest } from '../app/simulate-options.js';
import { WaveError } from '../core/errors/errors.js';

/** The flags `--simulate` contradicts, with why: a simulated run neither only prints its plan nor joins a live run's record or a real approval. */
const CONTRADICTED: ReadonlyArray<{ flag: string; set: (flags: SimulateFlags) => boolean; why: string }> = [
  { flag: '--dry-run', set: (f) => f.dryRun === true, why: 'a dry run runs nothing, a simulated one runs every step on stand-in outputs' },
  { flag: '--approved-in', set: (f) => f.approvedIn !== undefined, why: "a simulated run's gates are approved by --simulate, not by a GitHub Environment's reviewers" },
  { flag: '--run-id', set: (f) => f.runId !== undefined, why: 'a named run joins the step parts other jobs of a compiled workflow ran live' },
];

/** The flags of `wave run` that say whether and how it is simulated. */
export interface SimulateFlags {
  simulate?: boolean;
  simulateOutputs?: string;
  dryRun?: boolean;
  approvedIn?: string;
  runId?: string;
}

/** `--simulate` and `--simulate-outputs` as a run request (the fixture folder absolute), refusing by name the flags they contradict. */
export function simulateRequestOf(flags: SimulateFlags, cwd: string): SimulateRequest {
  if (flags.simulateOutputs !== undefined && !flags.simulate) {
    throw new WaveError('invalid_argument', '--simulate-outputs only applies to a simulated run', { hint: 'Add --simulate, or drop --simulate-outputs.' });
  }
  if (!flags.simulate) return {};
  const contradicted = CONTRADICTED.find((c) => c.set(flags));
  if (contradicted) {
    throw new WaveError('invalid_argument', `--simulate cannot be used with ${contradicted.flag}: ${contradicted.why}`, {
      hint: `Drop ${contradicted.flag} or --simulate.`,
    });
  }
  if (flags.simulateOutputs === undefined) return { simulate: true };
  const folder = resolve(cwd, flags.simulateOutputs);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new WaveError('invalid_argument', `--simulate-outputs ${flags.simulateOutputs}: no such folder`, {
      hint: 'Point --simulate-outputs at a folder with one subfolder per step id (see `wave run --help`).',
    });
  }
  return { simulate: true, simulateOutputs: folder };
}
