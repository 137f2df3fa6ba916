import { describe, expect, it } from 'vitest';
import { resolveSandboxPolicy } from '../../src/plan/sandbox-policy.js';
import { DEFAULT_SANDBOX_IMAGE, DEFAULT_SANDBOX_LIMITS } from '../../src/sandbox/defaults.js';

describe('the sandbox policy of a manifest', () => {
  it('runs on the host when the manifest says nothing, with the documented defaults ready', () => {
    expect(resolveSandboxPolicy(undefined)).toEqual({
      backend: 'none',
      image: DEFAULT_SANDBOX_IMAGE,
      limits: { memoryMb: 4096, pids: 1024, cpus: 2, diskMb: 10240, connections: 256 },
      defaultAllowedDomains: [],
    });
    expect(DEFAULT_SANDBOX_LIMITS).toEqual({ memoryMb: 4096, pids: 1024, cpus: 2, diskMb: 10240, connections: 256 });
  });

  it("takes Wave's enabled: true as bubblewrap, and a named backend over it", () => {
    expect(resolveSandboxPolicy({ sandbox: { enabled: true } }).backend).toBe('bubblewrap');
    expect(resolveSandboxPolicy({ sandbox: { enabled: true, backend: 'docker' } }).backend).toBe('docker');
    expect(resolveSandboxPolicy({ sandbox: { enabled: false } }).backend).toBe('none');
  });

  it('reads the image, the default allowlist and each limit', () => {
    const policy = resolveSandboxPolicy({
      sandbox: { backend: 'docker', docker_image: 'mine:1', default_allowed_domains: ['a.test'], limits: { memory_mb: 512, pids: 64, cpus: 0.5, disk_mb: 256, connections: 8 } },
    });
    expect(policy).toEqual({ backend: 'docker', image: 'mine:1', defaultAllowedDomains: ['a.test'], limits: { memoryMb: 512, pids: 64, cpus: 0.5, diskMb: 256, connections: 8 } });
  });
});
