import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { findCycle, topologicalLayers } from '../../src/core/dag.js';

const steps = (spec: Record<string, string[]>) => Object.entries(spec).map(([id, dependencies]) => ({ id, dependencies }));

describe('findCycle', () => {
  it('returns undefined for an acyclic graph', () => {
    expect(findCycle(steps({ a: [], b: ['a'], c: ['a', 'b'] }))).toBeUndefined();
  });

  it('returns a two-step cycle as a closed walk along dependencies', () => {
    expect(findCycle(steps({ a: ['b'], b: ['a'] }))).toEqual(['a', 'b', 'a']);
  });

  it('returns a longer cycle starting at the first declared step on it', () => {
    expect(findCycle(steps({ start: [], a: ['c'], b: ['a'], c: ['b'] }))).toEqual(['a', 'c', 'b', 'a']);
  });

  it('finds a step that depends on itself', () => {
    expect(findCycle(steps({ a: [], loop: ['a', 'loop'] }))).toEqual(['loop', 'loop']);
  });

  it('ignores dependencies on steps that do not exist', () => {
    expect(findCycle(steps({ a: ['ghost'], b: ['a'] }))).toBeUndefined();
  });

  it('handles a chain of 20,000 steps without exhausting the stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => ({ id: `s${i}`, dependencies: i ? [`s${i - 1}`] : [] }));
    expect(findCycle(chain)).toBeUndefined();
    chain[0]!.dependencies = ['s19999'];
    expect(findCycle(chain)).toHaveLength(20_001);
  });
});

describe('topologicalLayers', () => {
  it('groups steps that can run together, in declaration order within a layer', () => {
    const layers = topologicalLayers(steps({ z: [], report: ['count-1', 'count-0'], 'count-1': ['z'], 'count-0': ['z'], a: [] }));
    expect(layers).toEqual([['z', 'a'], ['count-1', 'count-0'], ['report']]);
  });

  it('places a step one layer past its deepest dependency', () => {
    expect(topologicalLayers(steps({ a: [], b: ['a'], c: ['b'], d: ['a'], e: ['a', 'c'] }))).toEqual([['a'], ['b', 'd'], ['c'], ['e']]);
  });

  it('puts every step of a graph without edges in one layer', () => {
    expect(topologicalLayers([{ id: 'x' }, { id: 'y' }])).toEqual([['x', 'y']]);
  });

  it('throws dag_cycle naming the cycle', () => {
    let error: unknown;
    try {
      topologicalLayers(steps({ a: ['b'], b: ['a'], c: [] }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('dag_cycle');
    expect((error as WaveError).message).toContain('a → b → a');
  });
});
