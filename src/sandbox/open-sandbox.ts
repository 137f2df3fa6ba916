import { spawnInGroup } from '../process/spawn.js';
import { BubblewrapSandbox } from './bubblewrap.js';
import { checkBubblewrap, checkDocker } from './preflight.js';
import { resolverFromEnv } from './egress/static-resolver.js';
import type { EgressRecord, Sandbox, SandboxPolicy } from './types.js';

/** The host "sandbox" of backend none: the spec runs as it is. */
export const HOST_SANDBOX: Sandbox = { backend: 'none', spawn: (spec, _scope, signal) => spawnInGroup(spec, signal), close: async () => {} };

/** A checked backend, ready to open for a run; `warnings` are to be shown before the run starts. */
export interface ReadySandbox {
  warnings: string[];
  /** The sandbox of one run; egress decisions go to `onEgress`. */
  open(onEgress: (record: EgressRecord) => void): Sandbox;
}

/**
 * Checks the policy's backend before anything runs (binary, daemon, image, user namespaces) and throws
 * sandbox_unavailable with a hint when it cannot run: a step never falls back to running unsandboxed.
 */
export async function prepareSandbox(policy: SandboxPolicy, env: NodeJS.ProcessEnv = process.env): Promise<ReadySandbox> {
  const resolver = resolverFromEnv(env);
  switch (policy.backend) {
    case 'none':
      return { warnings: [], open: () => HOST_SANDBOX };
    case 'bubblewrap': {
      const ready = await checkBubblewrap(env, policy.limits);
      return {
        warnings: ready.warning ? [ready.warning] : [],
        open: (onEgress) => new BubblewrapSandbox({ binary: ready.binary, limits: policy.limits, enforceLimits: ready.enforceLimits, onEgress, resolver }),
      };
    }
    case 'docker': {
      // dockerode is loaded only by runs that use it: it is most of what a cold start would otherwise parse.
      const [{ dockerClient }, { DockerSandbox }] = await Promise.all([import('./docker/docker-image.js'), import('./docker/docker.js')]);
      const docker = dockerClient(env);
      await checkDocker(docker, policy.image);
      return { warnings: [], open: (onEgress) => new DockerSandbox({ docker, image: policy.image, limits: policy.limits, onEgress, resolver }) };
    }
  }
}
