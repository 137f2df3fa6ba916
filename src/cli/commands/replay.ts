import type { Command } from 'commander';
import { startRun } from '../../app/run-sequence.js';
import { isBuiltinManifest } from '../../config/load/builtin-manifest.js';
import { runRequestOf, withRunFlags, type RunFlags } from '../run-flags.js';
import { recordedRunOf, replayRequestOf, withReplayFlags, type ReplayFlags } from '../replay-flags.js';

interface ReplayCommandFlags extends RunFlags, Omit<ReplayFlags, 'replay' | 'manifest'> {}

/** `wave replay <run>`: the recorded run's pipeline and manifest files as they are now, every agent and model attempt served from its recording. */
export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description(
      "Run a recorded run's pipeline again (its current pipeline and manifest files), serving every agent and model attempt from the recording: no agent, model, key or network.",
    )
    .argument('<run>', 'the recorded run: an id, or a unique prefix of one');
  withReplayFlags(withRunFlags(command)).action(async (run: string, flags: ReplayCommandFlags) => {
    const cwd = process.cwd();
    const { record } = recordedRunOf(run, cwd, flags.manifest);
    const manifest = flags.manifest ?? (isBuiltinManifest(record.manifestFile) ? undefined : record.manifestFile);
    const base = runRequestOf({ ...flags, manifest }, cwd);
    // The recorded input unless another is given: the same prompts, so the same recordings match.
    const given = base.readInput;
    const readInput = () => given?.() ?? record.input;
    const request = { ...base, readInput, pipeline: record.pipelineFile, ...replayRequestOf({ ...flags, replay: run }, cwd) };
    process.exitCode = (await startRun(request)).exitCode;
  });
}
