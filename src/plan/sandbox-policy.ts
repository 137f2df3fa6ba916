import type { RuntimeConfig } from '../config/schema/manifest-schema.js';
import { DEFAULT_SANDBOX_IMAGE, DEFAULT_SANDBOX_LIMITS } from '../sandbox/defaults.js';
import type { SandboxPolicy } from '../sandbox/types.js';

/** The manifest's runtime.sandbox resolved: Wave's `enabled: true` means bubblewrap when no backend is named. */
export function resolveSandboxPolicy(runtime: RuntimeConfig | undefined): SandboxPolicy {
  const sandbox = runtime?.sandbox;
  const limits = sandbox?.limits;
  return {
    backend: sandbox?.backend ?? (sandbox?.enabled ? 'bubblewrap' : 'none'),
    image: sandbox?.docker_image ?? DEFAULT_SANDBOX_IMAGE,
    defaultAllowedDomains: sandbox?.default_allowed_domains ?? [],
    limits: {
      memoryMb: limits?.memory_mb ?? DEFAULT_SANDBOX_LIMITS.memoryMb,
      pids: limits?.pids ?? DEFAULT_SANDBOX_LIMITS.pids,
      cpus: limits?.cpus ?? DEFAULT_SANDBOX_LIMITS.cpus,
      diskMb: limits?.disk_mb ?? DEFAULT_SANDBOX_LIMITS.diskMb,
      connections: limits?.connections ?? DEFAULT_SANDBOX_LIMITS.connections,
    },
  };
}
