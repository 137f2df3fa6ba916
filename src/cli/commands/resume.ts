import { Option, type Command } from 'commander';
import { resumeRun } from '../../app/run-sequence.js';
import { outputModeOf } from '../run-options.js';

interface ResumeFlags {
  manifest?: string;
  fromStep?: string;
  force?: boolean;
  output: 'auto' | 'text' | 'quiet' | 'json';
  json?: boolean;
}

/** `wave resume <run>`: finish a failed, cancelled or killed run without re-running completed steps; a rejected one only with --force. */
export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('Finish a failed, cancelled or interrupted run (a rejected one with --force); completed steps are not re-run.')
    .argument('<run>', 'run id (or a unique prefix)')
    .option('-m, --manifest <file>', 'the manifest used to find the run folder')
    .option('--from-step <id>', 're-run this step and everything after it, even if completed')
    .option('--force', 'resume a rejected run too: its rejected step runs again')
    .addOption(new Option('--output <mode>', 'how progress is shown').choices(['auto', 'text', 'quiet', 'json']).default('auto'))
    .option('--json', 'same as --output json')
    .action(async (runArg: string, flags: ResumeFlags) => {
      const outcome = await resumeRun({ cwd: process.cwd(), run: runArg, manifest: flags.manifest, fromStep: flags.fromStep, force: flags.force, output: outputModeOf(flags) });
      process.exitCode = outcome.exitCode;
    });
}
