import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { findManifest, loadManifest, loadPipeline, resolvePipelinePath } from '../../config/load/load.js';
import { EVENT_VERSION, type RunEvent } from '../../events.js';
import { buildPlan } from '../../plan/plan.js';
import { collectRunOutputs } from '../../engine/run/run-outputs.js';
import { formatGithubSummary } from '../../report/github-summary.js';
import { formatSummary } from '../../report/summary.js';
import { assembleRunRecord } from '../../state/assemble-run.js';
import { readStepParts } from '../../state/run-parts.js';
import { RunStore } from '../../state/run-store.js';
import { EXIT } from '../../core/exit-codes.js';
import { runRedactor } from '../../app/run-redactor.js';
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
      const record = assembleRunRecord(plan, flags.runId, parts, { onFailure: flags.onFailure, keepWorkspaces: false });
      const redactor = runRedactor(plan);
      const store = RunStore.create(plan.runtime.runsRoot, record, redactor, { partsFolder: true });
      const base = { v: EVENT_VERSION, runId: record.id } as const;
      // The named outputs, from the artifacts the parts brought: as `wave run` resolves them when its run ends.
      const resolved = collectRunOutputs(plan, store.record, store.dir);
      if (resolved) store.update((r) => Object.assign(r, { outputs: resolved.outputs }, resolved.warnings.length ? { outputWarnings: resolved.warnings } : {}));
      const stepEvents = [...parts.values()].flatMap((p) => p.events).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
      const events: RunEvent[] = [
        { ...base, ts: record.startedAt, type: 'run_started', pipeline: plan.pipelineName, steps: plan.steps.map((s) => s.id), resumed: false },
        ...stepEvents,
        ...(resolved ? [{ ...base, ts: record.finishedAt!, type: 'run_outputs' as const, outputs: resolved.outputs, warnings: resolved.warnings }] : []),
        {
          ...base,
          ts: record.finishedAt!,
          type: 'run_finished',
          status: record.status as 'completed' | 'failed' | 'cancelled',
          durationMs: record.durationMs!,
          tokens: record.tokens,
          costUsd: record.costUsd,
        },
      ];
      for (const event of events) store.appendEvent(event);
      store.close();
      process.stdout.write(formatSummary(store.record, store.dir));
      // Inside GitHub Actions: the action's job summary on the run's page, the id and status as the job's outputs.
      if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, formatGithubSummary(store.record, { redactor, runDir: store.dir }));
      if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `run-id=${record.id}\nstatus=${record.status}\n`);
      process.exitCode = record.status === 'completed' ? EXIT.ok : record.status === 'cancelled' ? EXIT.interrupted : EXIT.runFailed;
    });
}
