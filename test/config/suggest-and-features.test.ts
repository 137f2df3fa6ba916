import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean, editDistance } from '../../src/config/checks/suggest.js';
import { unsupportedFeatures } from '../../src/config/checks/unsupported-features.js';

describe('did you mean', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('dependencis', 'dependencies')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests only a close candidate, case-insensitively', () => {
    expect(closestMatch('Adaptors', ['adapters', 'personas'])).toBe('adapters');
    expect(closestMatch('architect', ['navigator', 'reviewer'])).toBeUndefined();
    expect(closestMatch('x'.repeat(1000), ['x'])).toBeUndefined();
  });

  it('falls back to the list of valid names, or says there are none', () => {
    expect(didYouMean('buld', ['build', 'test'], 'Steps')).toBe('Did you mean `build`?');
    expect(didYouMean('zz', ['build', 'test'], 'Steps')).toBe('Steps: `build`, `test`.');
    expect(didYouMean('zz', [], 'Declared adapters')).toBe('Declared adapters: none.');
  });
});

describe('unsupportedFeatures', () => {
  it('names every Wave feature that is not built yet', () => {
    const names = unsupportedFeatures()
      .map((f) => f.name)
      .join('\n');
    for (const name of [
      '`strategy.dependency_key`',
      '`validation`',
      '`contexts`',
      '`handover.compaction`',
      '`handover.on_review_fail`',
      '`handover.target_step`',
      '`memory.strategy: ',
      '`workspace.ref`',
      '`exec.type: slash_command`',
      'typescript_interface',
      'markdown_spec',
      'event_contains',
      'spec_derived_test',
      '`chat_context`',
      '`ontology`',
      '`hooks`',
      '`server`',
      '`runtime.relay`',
      '`runtime.audit`',
      '`runtime.meta_pipeline`',
      '`runtime.routing`',
      '`runtime.circuit_breaker`',
      'adapter `hooks_template`',
      'persona `hooks`',
    ]) {
      expect(names).toContain(name);
    }
    for (const feature of unsupportedFeatures()) expect(feature.what.length).toBeGreaterThan(3);
    // Graph routing is built: its keys load (test/engine/graph.e2e.test.ts).
    for (const built of ['`edges`', '`max_visits`', '`max_step_visits`', 'type: conditional']) expect(names).not.toContain(built);
  });
});
