import { runWave } from './cli.js';
import { makeProject } from './project.js';

/** `wave doctor` in a project of `manifest`, with `env` added: exit code, checks by adapter name (from --json), text report. */
export async function runDoctor(manifest: string, env: Record<string, string> = {}) {
  const project = makeProject({ 'wave.yaml': manifest });
  const json = await runWave(['doctor', '--json'], { cwd: project, env });
  const report = JSON.parse(json.stdout) as { adapters: Array<Record<string, any>> };
  const text = await runWave(['doctor'], { cwd: project, env });
  return { code: json.code, checks: Object.fromEntries(report.adapters.map((c) => [c.adapter as string, c])) as Record<string, Record<string, any>>, text: text.stdout, project };
}
