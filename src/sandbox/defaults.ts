import type { SandboxLimits } from './types.js';

/** The image `wave sandbox image` builds and the docker backend uses unless docker_image names another. */
export const DEFAULT_SANDBOX_IMAGE = 'wave-sandbox:local';

/** Limits of a sandboxed step the manifest leaves unset: generous for an agent CLI, tight enough to stop a runaway. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({ memoryMb: 4096, pids: 1024, cpus: 2, diskMb: 10240, connections: 256 });
