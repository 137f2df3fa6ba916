import { join } from 'node:path';
import type { CgroupLimits } from '../process/cgroup-limits.js';
import type { SpawnResult, SpawnSpec } from '../process/spawn-spec.js';
import type { Bind } from './host-paths.js';

export const SANDBOX_BACKENDS = ['none', 'bubblewrap', 'docker'] as const;
export type SandboxBackend = (typeof SANDBOX_BACKENDS)[number];

/** Resource limits of one sandboxed step. */
export interface SandboxLimits extends CgroupLimits {
  /** What the step may add to its workspace, HOME and /tmp together. */
  diskMb: number;
  /** Connections a sandboxed attempt may hold open to its egress proxy at once. */
  connections: number;
}

/** The manifest's sandbox policy, resolved. */
export interface SandboxPolicy {
  backend: SandboxBackend;
  /** The Docker image steps run in (docker backend). */
  image: string;
  limits: SandboxLimits;
  /** runtime.sandbox.default_allowed_domains: every step's allowlist starts with these. */
  defaultAllowedDomains: readonly string[];
}

/** The step's own HOME inside a sandbox, in its attempt folder. */
export function attemptHome(attemptDir: string): string {
  return join(attemptDir, 'home');
}

/** What a sandbox needs to know of the attempt it runs, beyond the spawn spec. */
export interface SandboxScope {
  runId: string;
  stepId: string;
  attempt: number;
  /** Absolute; visible read-write at the same path inside. */
  workspace: string;
  /** Absolute; the step's HOME is `attemptHome(attemptDir)`, the only part of it visible inside. */
  attemptDir: string;
  /** runtime.sandbox.default_allowed_domains plus the persona's allowed_domains. */
  allowedDomains: readonly string[];
  /** Model endpoints (base URLs) the step must reach at the same URL. */
  endpoints: readonly string[];
  /** Host files and folders visible read-only at the same path inside: the run's `wave` command and what it reads. */
  readOnly?: readonly string[];
  /** A worktree workspace's git folders, in mount order after the workspace: the project's read-only, the step's own writable. */
  gitBinds?: readonly Bind[];
  /** The user's CLI login the step uses: one host file shown at `at` in its HOME, and the variables the CLI needs to use it. */
  login?: { file: string; at: string; variables: Readonly<Record<string, string>> };
}

/** One egress decision of the proxy, attributed to the attempt that asked. */
export interface EgressRecord {
  scope: SandboxScope;
  host: string;
  port: number;
  allowed: boolean;
  via: 'connect' | 'http' | 'endpoint';
  reason?: string;
}

/** Runs a runner's spawn spec inside a backend; the executor and the adapters never know which. */
export interface Sandbox {
  readonly backend: SandboxBackend;
  /** Same contract as spawnInGroup: resolves once everything of the step is gone, never rejects. */
  spawn(spec: SpawnSpec, scope: SandboxScope, signal?: AbortSignal): Promise<SpawnResult>;
  /** Finishes what the run's attempts left to clean up (containers being removed); never rejects. */
  close(): Promise<void>;
}
