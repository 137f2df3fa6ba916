import type { Command } from 'commander';
import { cassettePipeline, openRecordedRun, type RecordedRun } from '../../app/cassette/recorded-run.js';
import { startRun } from '../../app/run-sequence.js';
import { isBuiltinManifest } from '../../config/load/builtin-manifest.js';
import { runRequestOf, withRunFlags, type RunFlags } from '../run-flags.js';
import { refuseContradictedFlags, replayRequestFrom, withReplayFlags, type ReplayFlags } from '../replay-flags.js';
import { registerReplayExport } from './replay-export.js';

interface ReplayCommandFlags extends RunFlags, Omit<ReplayFlags, 'replay' | 'manifest'> {}

/**
 * `wave replay <run>`: the recorded run's pipeline and manifest files as they are now, every agent and model attempt
 * served from the recording; `wave replay export <run>` packs a run into a cassette.
 */
export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description(
      "Run a recorded run's pipeline again (its current pipeline and manifest files), serving every agent and model attempt from the recording: no agent, model, key or network.",
    )
    .argument('<run>', 'the recorded run: an id, a unique prefix of one, or a cassette file (a path, or a name ending .tgz or .tar.gz)')
    // `export`'s flags (-m, -o) are its own, never taken by `replay` (whose --output means something else).
    .enablePositionalOptions();
  withReplayFlags(withRunFlags(command)).action(async (run: string, flags: ReplayCommandFlags) => {
    const cwd = process.cwd();
    refuseContradictedFlags(flags);
    const recorded = await openRecordedRun(run, cwd, flags.manifest);
    const { manifest, pipeline } = replayedFiles(recorded, cwd, flags.manifest);
    const base = runRequestOf({ ...flags, manifest }, cwd);
    // The recorded input unless another is given: the same prompts, so the same recordings match.
    const given = base.readInput;
    const readInput = () => given?.() ?? recorded.record.input;
    const request = { ...base, readInput, pipeline, ...replayRequestFrom(flags, recorded.dir) };
    process.exitCode = (await startRun(request)).exitCode;
  });
  registerReplayExport(command);
}

/**
 * The manifest and pipeline a replay runs: a run of this project's own recorded files; a cassette's, this project's
 * (the manifest given or the nearest wave.yaml, and the recorded pipeline found here), as its recorded paths are another machine's.
 */
function replayedFiles({ record, cassette }: RecordedRun, cwd: string, manifest?: string): { manifest?: string; pipeline: string } {
  if (cassette) return { manifest, pipeline: cassettePipeline(cassette, cwd, manifest) };
  return { manifest: manifest ?? (isBuiltinManifest(record.manifestFile) ? undefined : record.manifestFile), pipeline: record.pipelineFile };
}
