import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGES_DIFF_FILE } from '../../core/file-change.js';
import { safeText } from '../../core/terminal-safe.js';
import { WaveError } from '../../core/errors/errors.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { attemptsOf } from '../../state/step-logs.js';

/** `wave diff <run> --step <id>`: the unified diff of the files the step's latest attempt changed in its workspace. */
export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('Print the unified diff of the files a step changed in its workspace (its latest attempt).')
    .argument('<run>', 'a run id, or a unique prefix of one')
    .requiredOption('--step <id>', 'the step')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .action((runId: string, options: { step: string; manifest?: string }) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), options.manifest), runId);
      const { record } = store;
      if (!record.steps[options.step]) {
        throw new WaveError('invalid_argument', `run ${record.id} has no step \`${options.step}\``, { hint: `Its steps: ${Object.keys(record.steps).join(', ')}.` });
      }
      const attempt = attemptsOf(store.dir, record, options.step).at(-1);
      const file = attempt === undefined ? undefined : join(store.dir, 'steps', options.step, `attempt-${attempt}`, CHANGES_DIFF_FILE);
      let text: string | undefined;
      try {
        text = file && readFileSync(file, 'utf8');
      } catch {
        // No diff file: the attempt has not finished, or its changes could not be measured.
      }
      if (text === undefined) {
        throw new WaveError('invalid_argument', `step \`${options.step}\` of run ${record.id} has no recorded changes`, {
          hint: 'Wait for the step to finish an attempt; `wave status` lists the files it changed.',
        });
      }
      // On a terminal the control characters of what the step wrote are shown escaped; piped, the diff stays exact for `git apply`.
      process.stdout.write(process.stdout.isTTY ? safeText(text) : text);
    });
}
