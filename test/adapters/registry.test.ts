import { describe, expect, it } from 'vitest';
import { MockRunner } from '../../src/adapters/mock/runner.js';
import { ProcessRunner } from '../../src/adapters/process/runner.js';
import { AdapterRegistry, defaultRegistry } from '../../src/adapters/registry.js';
import { WaveError } from '../../src/errors.js';

describe('AdapterRegistry', () => {
  it('resolves the process runner by default and registered runners by type', () => {
    const registry = defaultRegistry();
    expect(registry.resolve('process')).toBeInstanceOf(ProcessRunner);
    const mock = new MockRunner(() => ({}));
    expect(registry.register(mock).resolve('mock')).toBe(mock);
  });

  it('refuses an unknown type with a WaveError naming what can run', () => {
    const registry = new AdapterRegistry().register(new ProcessRunner());
    let error: unknown;
    try {
      registry.resolve('claude');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('not_supported');
    expect((error as WaveError).message).toContain('claude');
    expect((error as WaveError).hint).toContain('process');
  });
});
