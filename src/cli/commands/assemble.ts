import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { findManifest, loadManifest, loadPipeline, resolvePipelinePath } from '../../config/load/load.js';
import { EVENT_VERSION } from '../../events.js';
import { buildPlan } from '../../plan/plan.js';
import { collectRunOutputs } from '../../engine/run/run-outputs.js';
import { COMPILED_RERUN, formatGithubSummary } from '../../report/github/github-summary.js';
import { formatSummary } from '../../report/summary.js';
import { assembledFinish, assembledStart, partEvents, replayAssembled } from '../../state/assemble-run.js';
import { newRunRecord } from '../../state/record/new-run-record.js';
import { readStepParts } from '../../state/run-parts.js';
import { RunStore } from '../../state/run-store.js';
import { EXIT } from '../../core/errors/exit-codes.js';
import { runRedactor } from '../../app/run-redactor.js';
import { traceAssembledRun } from '../../app/assembled-trace.js';
import { runIdArgument } from '../run-id-argument.js';

interface AssembleFlags {
  runId: string;
  manifest?: string;
  input?: string;
  onFailure: 'halt' | 'continue';
}

/** `wave assemble <pipeline> --run-id ID`: one run record from the parts its steps left in separate jobs. */
export function registerAssemble(program: Command): void {
  program
    .command('assemble')
    .description('Assemble the run record of a run whose steps ran apart (the jobs of a compiled workflow) from their parts.')
    .argument('<pipeline>', 'pipeline file or name')
    .requiredOption('--run-id <id>', 'the run whose folder holds the parts', runIdArgument)
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder)')
    .option('--input <text>', 'the input the steps ran with')
    .addOption(new Option('--on-failure <mode>', 'the failure mode the steps ran with').choices(['halt', 'continue']).default('halt'))
    .action(async (pipelineArg: string, flags: AssembleFlags) => {
      const cwd = process.cwd();
      const manifest = await loadManifest(findManifest(cwd, flags.manifest));
      const pipeline = await loadPipeline(resolvePipelinePath(pipelineArg, manifest.dir, cwd), manifest);
      const plan = buildPlan(manifest, pipeline, { input: flags.input ?? pipeline.value.input?.default ?? '' });
      const parts = readStepParts(join(plan.runtime.runsRoot, flags.runId));
      const events = partEvents(parts, flags.runId);
      const fresh = newRunRecord(flags.runId, plan, { onFailure: flags.onFailure, keepWorkspaces: false });
      const redactor = runRedactor(plan);
      const store = RunStore.create(plan.runtime.runsRoot, { ...fresh, startedAt: assembledStart(events) }, redactor, { partsFolder: true });
      replayAssembled(store, plan, events);
      const finished = assembledFinish(store.record);
      // The named outputs, from the artifacts the parts brought: as `wave run` resolves them when its run ends.
      const resolved = collectRunOutputs(plan, store.record, store.dir);
      if (resolved) store.appendEvent({ v: EVENT_VERSION, ts: finished.ts, runId: fresh.id, type: 'run_outputs', outputs: resolved.outputs, warnings: resolved.warnings });
      store.appendEvent(finished);
      store.close();
      const { record } = store;
      await traceAssembledRun(plan, record.id, { err: process.stderr, redactor });
      // Its steps ran as jobs: a failed one is run again by GitHub, not resumed here.
      process.stdout.write(formatSummary(store.record, store.dir, { rerun: COMPILED_RERUN }));
      // Inside GitHub Actions: the action's job summary on the run's page, the id and status as the job's outputs.
      if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, formatGithubSummary(store.record, { redactor, runDir: store.dir, resume: 'compiled' }));
      if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `run-id=${record.id}\nstatus=${record.status}\n`);
      process.exitCode = record.status === 'completed' ? EXIT.ok : record.status === 'cancelled' ? EXIT.interrupted : record.status === 'rejected' ? EXIT.rejected : EXIT.runFailed;
    });
}
