import { WaveError } from '../core/errors/errors.js';

/** Refuses a step id the pipeline does not have. */
export function requireStep(all: readonly string[], id: string): void {
  if (!all.includes(id)) throw new WaveError('invalid_argument', `no step \`${id}\` in this pipeline`, { hint: `Name one of its steps: ${all.join(', ')}.` });
}

/** What --steps, --exclude and --with-deps ask for. */
export interface SelectionFlags {
  steps?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
  withDeps?: boolean | undefined;
}

/** The steps a selection needs done first and leaves out: each as `step needs dependency`. */
function missingDependencies(steps: readonly SelectableStep[], chosen: ReadonlySet<string>, done: ReadonlySet<string>): string[] {
  return steps.filter((s) => chosen.has(s.id)).flatMap((s) => s.dependencies.filter((d) => !chosen.has(d) && !done.has(d)).map((d) => `\`${s.id}\` needs \`${d}\``));
}

/** A step as a selection sees it. */
export interface SelectableStep {
  id: string;
  dependencies: readonly string[];
}

/** `chosen` and everything its steps depend on, transitively. */
function withDependencies(steps: readonly SelectableStep[], chosen: ReadonlySet<string>): Set<string> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const all = new Set<string>();
  const add = (id: string): void => {
    if (all.has(id)) return;
    all.add(id);
    for (const dep of byId.get(id)?.dependencies ?? []) add(dep);
  };
  chosen.forEach(add);
  return all;
}

/**
 * The steps to run given --steps, --exclude and --with-deps (shared by run, resume and the Action); unknown ids are
 * an error, and so is a selected step whose dependency is neither selected nor `done` (a resumed run's completed
 * steps, or parts another job left): it would run without what it reads.
 */
export function selection(steps: readonly SelectableStep[], flags: SelectionFlags, done: ReadonlySet<string> = new Set()): Set<string> | undefined {
  const all = steps.map((s) => s.id);
  for (const id of [...(flags.steps ?? []), ...(flags.exclude ?? [])]) requireStep(all, id);
  if (!flags.steps && !flags.exclude) return undefined;
  const chosen = new Set((flags.steps ?? all).filter((id) => !flags.exclude?.includes(id)));
  const selected = flags.withDeps ? new Set([...withDependencies(steps, chosen)].filter((id) => !flags.exclude?.includes(id))) : chosen;
  const missing = missingDependencies(steps, selected, done);
  if (missing.length) {
    throw new WaveError('invalid_argument', `the selected steps depend on steps that will not run: ${missing.join(', ')}`, {
      hint: flags.withDeps ? 'Do not --exclude what the selected steps depend on.' : 'Add them to --steps, or pass --with-deps to run what the selected steps depend on.',
    });
  }
  return selected;
}
