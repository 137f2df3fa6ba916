import { WaveError } from './errors/errors.js';

/** The part of a step the dependency graph needs. */
export interface DagStep {
  id: string;
  dependencies?: readonly string[];
}

/** Dependencies that name a step of the graph (the loader reports the others). */
function knownDependencies(steps: readonly DagStep[]): Map<string, string[]> {
  const ids = new Set(steps.map((s) => s.id));
  const graph = new Map<string, string[]>();
  for (const step of steps) {
    if (!graph.has(step.id))
      graph.set(
        step.id,
        (step.dependencies ?? []).filter((d) => ids.has(d)),
      );
  }
  return graph;
}

/**
 * The first dependency cycle in declaration order, as a closed walk along `dependencies` edges:
 * ['a', 'b', 'a'] means a depends on b and b depends on a. Undefined when the graph is acyclic.
 */
export function findCycle(steps: readonly DagStep[]): string[] | undefined {
  const graph = knownDependencies(steps);
  const state = new Map<string, 'open' | 'done'>();
  for (const start of graph.keys()) {
    if (state.has(start)) continue;
    // Iterative depth-first search: long chains must not exhaust the call stack.
    const trail: string[] = [start];
    const next: number[] = [0];
    state.set(start, 'open');
    while (trail.length > 0) {
      const id = trail[trail.length - 1]!;
      const deps = graph.get(id)!;
      const i = next[next.length - 1]!;
      if (i >= deps.length) {
        state.set(id, 'done');
        trail.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const dep = deps[i]!;
      if (state.get(dep) === 'open') return [...trail.slice(trail.indexOf(dep)), dep];
      if (!state.has(dep)) {
        state.set(dep, 'open');
        trail.push(dep);
        next.push(0);
      }
    }
  }
  return undefined;
}

/**
 * Groups of steps that can run at the same time: a step's layer is one past its deepest dependency.
 * Steps keep their declaration order within a layer. Throws dag_cycle when the steps form a cycle.
 */
export function topologicalLayers(steps: readonly DagStep[]): string[][] {
  const graph = knownDependencies(steps);
  const layerOf = new Map<string, number>();
  let remaining = [...graph.keys()];
  while (remaining.length > 0) {
    const blocked: string[] = [];
    const placed = new Map<string, number>();
    for (const id of remaining) {
      const deps = graph.get(id)!;
      if (deps.every((d) => layerOf.has(d)))
        placed.set(
          id,
          deps.reduce((max, d) => Math.max(max, layerOf.get(d)! + 1), 0),
        );
      else blocked.push(id);
    }
    if (placed.size === 0) {
      const cycle = findCycle(steps) ?? blocked;
      throw new WaveError('dag_cycle', `the steps depend on each other in a cycle: ${cycle.join(' → ')}`, {
        hint: 'Remove one of these dependencies.',
      });
    }
    for (const [id, layer] of placed) layerOf.set(id, layer);
    remaining = blocked;
  }
  const layers: string[][] = [];
  for (const [id, layer] of layerOf) (layers[layer] ??= []).push(id);
  // layerOf was filled round by round; restore declaration order inside each layer.
  const order = new Map([...graph.keys()].map((id, i) => [id, i]));
  return layers.map((layer) => layer.sort((a, b) => order.get(a)! - order.get(b)!));
}

/** Every step `id` depends on, directly or not; dependencies that name no step of `steps` are left out. */
export function ancestorsOf(id: string, steps: ReadonlyMap<string, DagStep>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(steps.get(id)?.dependencies ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next) || !steps.has(next)) continue;
    seen.add(next);
    stack.push(...(steps.get(next)!.dependencies ?? []));
  }
  return seen;
}
