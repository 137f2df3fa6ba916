import { join } from 'node:path';
import { loadManifest, loadPipeline } from '../../src/config/load/load.js';
import { buildPlan } from '../../src/plan/plan.js';
import { newRunRecord } from '../../src/state/record/new-run-record.js';
import { RunStore } from '../../src/state/run-store.js';
import { makeProject } from './project.js';

/** A manifest whose one persona `agent` runs on claude, for in-process runs on a mock runner. */
export const AGENT_MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude }
personas:
  agent: { adapter: claude }
`;

/** A project holding `pipeline` (as pipelines/p.yaml), the manifest and `files`, planned, with a fresh run store. */
export async function plannedRun(pipeline: string, options: { manifest?: string; files?: Record<string, string> } = {}) {
  const dir = makeProject({ 'wave.yaml': options.manifest ?? AGENT_MANIFEST, 'pipelines/p.yaml': pipeline, ...options.files });
  const manifest = await loadManifest(join(dir, 'wave.yaml'));
  const plan = buildPlan(manifest, await loadPipeline(join(dir, 'pipelines', 'p.yaml'), manifest), { input: 'in' });
  const store = RunStore.create(plan.runtime.runsRoot, newRunRecord('p-run', plan, { onFailure: 'halt', keepWorkspaces: true }));
  return { dir, plan, store };
}
