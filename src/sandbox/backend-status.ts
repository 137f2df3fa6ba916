import { WaveError } from '../core/errors/errors.js';
import { prepareSandbox } from './open-sandbox.js';
import type { SandboxBackend, SandboxPolicy } from './types.js';

/** Whether one backend can run steps on this machine, as `wave doctor` and `wave validate` report it. */
export interface BackendStatus {
  backend: SandboxBackend;
  /** The backend the manifest chose. */
  configured: boolean;
  usable: boolean;
  problem?: string;
  hint?: string;
  warnings: string[];
}

/** Checks one backend the way `wave run` does before its first step. */
export async function backendStatus(policy: SandboxPolicy, backend: SandboxBackend, env: NodeJS.ProcessEnv = process.env): Promise<BackendStatus> {
  const configured = policy.backend === backend;
  try {
    const ready = await prepareSandbox({ ...policy, backend }, env);
    return { backend, configured, usable: true, warnings: ready.warnings };
  } catch (error) {
    if (!(error instanceof WaveError)) throw error;
    return { backend, configured, usable: false, problem: error.message, ...(error.hint ? { hint: error.hint } : {}), warnings: [] };
  }
}

/** Every backend's status, the configured one first. */
export async function allBackendStatus(policy: SandboxPolicy, env: NodeJS.ProcessEnv = process.env): Promise<BackendStatus[]> {
  const order: SandboxBackend[] = [policy.backend, ...(['bubblewrap', 'docker', 'none'] as const).filter((b) => b !== policy.backend)];
  return Promise.all(order.map((backend) => backendStatus(policy, backend, env)));
}
