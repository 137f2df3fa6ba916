import { describe, expect, it } from 'vitest';
import { ProcessRunner } from '../../src/adapters/process/runner.js';
import { AdapterRegistry, defaultRegistry } from '../../src/adapters/registry.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { MockRunner } from '../support/mock-runner.js';

describe('AdapterRegistry', () => {
  it('resolves the process runner by default, and a runner registered later replaces the built-in one of its type', () => {
    const registry = defaultRegistry();
    expect(registry.resolve('process')).toBeInstanceOf(ProcessRunner);
    const scripted = new MockRunner(() => ({}), 'codex');
    expect(registry.resolve('codex')).not.toBe(scripted);
    expect(registry.register(scripted).resolve('codex')).toBe(scripted);
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
