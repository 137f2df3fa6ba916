import { resolve } from 'node:path';
import type { Command } from 'commander';
import { exportCassette } from '../../app/cassette/export-cassette.js';
import { findProjectRoot } from '../../config/load/load.js';

interface ReplayExportFlags {
  output: string;
  force?: boolean;
  manifest?: string;
}

/** `wave replay export <run> -o <file>`: a recorded run and its child runs as one cassette file, to commit and replay elsewhere. */
export function registerReplayExport(replay: Command): void {
  replay
    .command('export')
    .description('Pack a recorded run and the child runs it started into a cassette (a tar.gz) that `wave replay <file>` replays in any copy of the project.')
    .argument('<run>', 'the recorded run: an id, or a unique prefix of one')
    .requiredOption('-o, --output <file>', 'the cassette file to write, e.g. replay.tgz')
    .option('--force', 'overwrite the file if it exists')
    .option('-m, --manifest <file>', 'the manifest whose runs folder holds the run (default: wave.yaml here or in a parent folder)')
    .action(async (run: string, flags: ReplayExportFlags) => {
      const cwd = process.cwd();
      const file = resolve(cwd, flags.output);
      const cassette = await exportCassette({ projectRoot: findProjectRoot(cwd, flags.manifest), runId: run, file, force: flags.force });
      const children = cassette.runs.length - 1;
      process.stdout.write(`exported run ${cassette.run}${children > 0 ? ` and ${children} child run${children === 1 ? '' : 's'}` : ''} to ${file}\n`);
    });
}
