import { basename, extname } from 'node:path';
import { listPipelineFiles, manifestView, readPipeline } from '../config/load/load.js';
import type { Manifest } from '../config/schema/manifest-schema.js';
import type { ConfigRead } from '../config/load/read-config.js';
import { RequiresSchema } from '../config/schema/requires-schema.js';
import { isRecord } from '../config/load/value-path.js';
import { checkRequirements, type RequirementStatus } from '../engine/steps/requirements.js';
import { planRequires } from '../plan/plan-requires.js';

/** One requirement of the project's pipelines: what was found, and which pipelines name it. */
export interface ProjectRequirement extends Omit<RequirementStatus, 'location'> {
  pipelines: string[];
}

/**
 * Checks the `requires` of every pipeline of the project, as `wave run` checks one before its first step. A
 * pipeline that is invalid for other reasons still has its requirements checked, when they themselves are valid.
 */
export async function checkProjectRequirements(manifest: ConfigRead<Manifest>, env: NodeJS.ProcessEnv): Promise<ProjectRequirement[]> {
  const view = manifestView(manifest);
  const byKey = new Map<string, ProjectRequirement>();
  for (const file of listPipelineFiles(view.dir)) {
    const read = await readPipeline(file, view, env);
    const raw = isRecord(read.raw) ? read.raw.requires : undefined;
    const parsed = RequiresSchema.safeParse(raw);
    if (raw === undefined || !parsed.success || !read.locator) continue;
    const name = basename(file, extname(file));
    const statuses = await checkRequirements(planRequires(parsed.data, read.locator.locate, view.project ?? {}), view.dir, env);
    for (const { location: _, ...status } of statuses) {
      const key = `${status.kind}:${status.name}:${status.detail}`;
      const known = byKey.get(key);
      if (known) known.pipelines.push(name);
      else byKey.set(key, { ...status, pipelines: [name] });
    }
  }
  return [...byKey.values()];
}

/** The doctor's lines for the requirements: ok, FAIL (stops a run) or warn (an optional skill). */
export function requirementsReport(requirements: readonly ProjectRequirement[]): string {
  if (requirements.length === 0) return '';
  const lines = requirements.map((r) => {
    const state = r.ok ? 'ok  ' : r.optional ? 'warn' : 'FAIL';
    const head = `${state} requires ${r.kind} ${r.name} (${r.pipelines.join(', ')}): ${r.detail}`;
    return r.hint && !r.ok ? `${head}\n  hint: ${r.hint}` : head;
  });
  return `${lines.join('\n')}\n`;
}
