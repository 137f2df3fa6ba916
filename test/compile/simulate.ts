import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { WAVE_BIN } from '../support/cli.js';

type Result = 'success' | 'failure' | 'skipped';
interface WorkflowStep {
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | boolean>;
}
interface WorkflowJob {
  needs?: string[];
  if?: string;
  environment?: string;
  steps: WorkflowStep[];
}

const RUN_ID = 'sim-1';

/** Replaces the expressions the compiled workflow uses with the values of a simulated GitHub run. */
function expand(text: string, input: string): string {
  return text
    .replaceAll('${{ env.WAVE_RUN_ID }}', RUN_ID)
    .replaceAll('${{ inputs.input }}', input)
    .replace(/\$\{\{ secrets\.\w+ \}\}/g, '')
    .replaceAll("${{ '${{' }}", '${{');
}

/** Evaluates a job's `if:` as GitHub would for the forms the compiler writes (needs results, !cancelled(), always()). */
function allowed(condition: string | undefined, needs: string[], results: Map<string, Result>): boolean {
  if (condition === undefined) return needs.every((n) => results.get(n) === 'success');
  const js = condition
    .replace(/^\$\{\{\s*|\s*\}\}$/g, '')
    .replaceAll('!cancelled()', 'true')
    .replaceAll('always()', 'true')
    .replace(/needs\.([\w-]+)\.result/g, (_, id: string) => JSON.stringify(results.get(id)))
    .replaceAll('==', '===');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the condition is the compiler's own output, rewritten above
  return Boolean(new Function(`return (${js});`)());
}

/** A glob of download-artifact (`*` and `{a,b}`) as a regular expression. */
function globRegex(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^$()|[\]\\]/g, '\\$&')
    .replace(/\{([^}]*)\}/g, (_, alts: string) => `(${alts.split(',').join('|')})`)
    .replaceAll('*', '.*');
  return new RegExp(`^${body}$`);
}

/** The deepest folder holding every path, as upload-artifact roots an artifact of several paths. */
function commonRoot(paths: string[]): string {
  const parts = paths.map((p) => p.replace(/\/$/, '').split('/').slice(0, -1));
  const first = parts[0]!;
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}

/** The files under `path` (a file or a folder), absolute. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => filesUnder(join(path, e.name)));
}

/** What the simulated GitHub decides besides running jobs: the Environments whose reviewer rejects the job waiting for them (the others approve). */
export interface SimulatedReviews {
  rejected?: ReadonlySet<string>;
}

/**
 * Runs a compiled workflow's jobs in the order of their needs, each in a fresh copy of `project` holding only
 * what it downloads; `wave` is the built CLI. A job bound to an Environment runs once its reviewer approves; a
 * rejection fails it unrun, as GitHub does. Returns each job's folder, result, outputs and job summary.
 */
export async function simulateWorkflow(workflowText: string, project: string, input: string, reviews: SimulatedReviews = {}) {
  const workflow = parse(workflowText) as { jobs: Record<string, WorkflowJob> };
  const artifacts = mkdtempSync(join(tmpdir(), 'wave-sim-artifacts-'));
  const results = new Map<string, Result>();
  const folders = new Map<string, string>();
  const outputs = new Map<string, string>();
  /** Each job's log: what its run steps printed. */
  const logs = new Map<string, string>();
  const summaries = new Map<string, string>();
  const pending = Object.keys(workflow.jobs);
  while (pending.length) {
    const index = pending.findIndex((id) => (workflow.jobs[id]!.needs ?? []).every((n) => results.has(n)));
    const [id] = pending.splice(index, 1) as [string];
    const job = workflow.jobs[id]!;
    if (!allowed(job.if, job.needs ?? [], results)) {
      results.set(id, 'skipped');
      continue;
    }
    if (job.environment !== undefined && reviews.rejected?.has(job.environment)) {
      results.set(id, 'failure');
      continue;
    }
    const dir = mkdtempSync(join(tmpdir(), `wave-sim-${id}-`));
    cpSync(project, dir, { recursive: true, filter: (src) => !relative(project, src).startsWith('.wave') });
    folders.set(id, dir);
    const outputFile = join(dir, '.github-output');
    const summaryFile = join(dir, '.github-step-summary');
    let failed = false;
    for (const step of job.steps) {
      if (failed && step.if !== 'always()') continue;
      const uses = step.uses?.split('@')[0];
      if (uses === 'actions/download-artifact') {
        const match = globRegex(String(step.with!.pattern));
        for (const name of readdirSync(artifacts).filter((n) => match.test(n)))
          cpSync(join(artifacts, name), join(dir, expand(String(step.with!.path), input)), { recursive: true });
      } else if (uses === 'actions/upload-artifact') {
        const paths = expand(String(step.with!.path), input).split('\n');
        const root = paths.length > 1 ? commonRoot(paths) : paths[0]!.replace(/\/$/, '');
        for (const file of paths.flatMap((p) => filesUnder(join(dir, p)))) {
          const target = join(artifacts, String(step.with!.name), relative(join(dir, root), file));
          mkdirSync(dirname(target), { recursive: true });
          cpSync(file, target);
        }
      } else if (step.run && step.run !== 'npm ci' && !step.run.startsWith('npm install --global ')) {
        // GitHub evaluates the expressions of run: too.
        // Either way the workflow runs Wave (the lockfile's or npx's), the built CLI stands in for it.
        const script = expand(step.run, input).replace(/^npx (--no wave|--yes wave-pipelines@\S+) /, `"${process.execPath}" "${WAVE_BIN}" `);
        const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, input)]));
        const done = await execa('sh', ['-c', script], {
          cwd: dir,
          reject: false,
          env: { NO_COLOR: '1', WAVE_RUN_ID: RUN_ID, WAVE_INPUT: input, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, ...env },
        });
        logs.set(id, `${logs.get(id) ?? ''}${String(done.stdout)}${String(done.stderr)}`);
        if (done.exitCode !== 0) failed = true;
      }
    }
    results.set(id, failed ? 'failure' : 'success');
    if (existsSync(outputFile)) outputs.set(id, readFileSync(outputFile, 'utf8'));
    if (existsSync(summaryFile)) summaries.set(id, readFileSync(summaryFile, 'utf8'));
  }
  return { results, folders, outputs, summaries, logs, runId: RUN_ID };
}
