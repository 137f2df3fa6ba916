import { InvalidArgumentError, Option, type Command } from 'commander';
import { openRecordedRun } from '../app/cassette/recorded-run.js';
import type { ReplayRequest } from '../app/replay-options.js';
import { WaveError } from '../core/errors/errors.js';

/** The flags of `wave run --replay` and `wave replay` that say how a run is replayed. */
export interface ReplayFlags {
  replay?: string;
  replayMode?: 'strict' | 'live';
  speed?: number;
  manifest?: string;
  simulate?: boolean;
  dryRun?: boolean;
  runId?: string;
}

/** The flags a replay contradicts, with why. */
const CONTRADICTED: ReadonlyArray<{ flag: string; set: (flags: ReplayFlags) => boolean; why: string }> = [
  { flag: '--simulate', set: (f) => f.simulate === true, why: 'a replayed attempt is served from its recording, a simulated one from stand-in outputs' },
  { flag: '--dry-run', set: (f) => f.dryRun === true, why: 'a dry run runs nothing, a replay runs every step' },
  { flag: '--run-id', set: (f) => f.runId !== undefined, why: 'a named run joins the step parts other jobs of a compiled workflow ran live' },
];

/** `--speed`: a positive number. */
export function speedArgument(value: string): number {
  const speed = Number(value);
  if (!Number.isFinite(speed) || speed <= 0) throw new InvalidArgumentError('must be a positive number, such as 1 (as recorded) or 10.');
  return speed;
}

/** Adds `--replay-mode` and `--speed` to `command`. */
export function withReplayFlags(command: Command): Command {
  return command
    .addOption(new Option('--replay-mode <mode>', 'strict: an attempt the recording does not match fails; live: it runs live').choices(['strict', 'live']))
    .option('--speed <n>', 'feed recorded streams n times as fast as recorded (default: as fast as possible, order kept)', speedArgument);
}

/** `--replay <run>`, `--replay-mode` and `--speed` as a run request, refusing by name the flags they contradict; a cassette is unpacked in the project. */
export async function replayRequestOf(flags: ReplayFlags, cwd: string): Promise<ReplayRequest> {
  if (flags.replay === undefined) {
    const stray = flags.replayMode !== undefined ? '--replay-mode' : flags.speed !== undefined ? '--speed' : undefined;
    if (stray) throw new WaveError('invalid_argument', `${stray} only applies to a replay`, { hint: `Add --replay <run>, or drop ${stray}.` });
    return {};
  }
  refuseContradictedFlags(flags);
  return replayRequestFrom(flags, (await openRecordedRun(flags.replay, cwd, flags.manifest)).dir);
}

/** The replay request of a recorded run already opened (its folder); the caller refused the contradicted flags before opening it. */
export function replayRequestFrom(flags: ReplayFlags, recordedDir: string): ReplayRequest {
  return { replayOf: recordedDir, ...(flags.replayMode === 'live' ? { replayMode: 'live' } : {}), ...(flags.speed !== undefined ? { replaySpeed: flags.speed } : {}) };
}

/** Refuses by name the flags a replay contradicts: before a recording (or a cassette) is opened for nothing. */
export function refuseContradictedFlags(flags: ReplayFlags): void {
  const contradicted = CONTRADICTED.find((c) => c.set(flags));
  if (contradicted) {
    throw new WaveError('invalid_argument', `a replay cannot be used with ${contradicted.flag}: ${contradicted.why}`, { hint: `Drop ${contradicted.flag} or the replay.` });
  }
}
