import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { resolveBinary } from '../process/binary.js';
import { WaveError } from '../core/errors/errors.js';
import { ownerTag } from '../process/owner-tag.js';
import { createCgroupJail, sweepOrphanedJails } from '../process/cgroup-limits.js';
import { rootLinks, systemBinds } from './host-paths.js';
import type { SandboxLimits } from './types.js';

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 5_000;

/** What a usable bubblewrap backend found. */
export interface BubblewrapReadiness {
  binary: string;
  /** False when no cgroup could be made: the limits are then not enforced, and `warning` says so. */
  enforceLimits: boolean;
  warning?: string;
}

const unavailable = (message: string, hint: string, cause?: unknown) => new WaveError('sandbox_unavailable', message, { hint, cause });

/** socat carries the proxy and the model endpoint into a sandbox that has no network; the host's /usr provides it. */
function requireSocat(): void {
  if (!resolveBinary('socat', { PATH: '/usr/bin:/usr/local/bin' })) {
    throw unavailable('socat is not installed: sandboxed steps reach the egress proxy through it', 'Install it (apt-get install socat).');
  }
}

/** Checks bwrap is installed, may create user namespaces here, and whether cgroups can hold the limits. */
export async function checkBubblewrap(env: NodeJS.ProcessEnv, limits: SandboxLimits): Promise<BubblewrapReadiness> {
  const binary = resolveBinary('bwrap', env);
  if (!binary)
    throw unavailable('bubblewrap (bwrap) is not installed', 'Install it (apt-get install bubblewrap, dnf install bubblewrap), or set runtime.sandbox.backend to docker or none.');
  requireSocat();
  const probe = ['--unshare-all', '--unshare-user', '--die-with-parent', '--cap-drop', 'ALL'];
  for (const bind of systemBinds()) probe.push('--ro-bind', bind.path, bind.path);
  for (const [link, target] of rootLinks().links) probe.push('--symlink', target, link);
  // Independent of the namespaces' probe: the cgroups are checked while bwrap runs.
  const limitsChecked = sweepOrphanedJails().then(() => checkCgroupLimits(limits));
  try {
    await run(binary, [...probe, '--proc', '/proc', '--dev', '/dev', '--', '/bin/true'], { timeout: PROBE_TIMEOUT_MS });
  } catch (error) {
    await limitsChecked;
    const detail = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    throw unavailable(
      `bubblewrap cannot create a sandbox here: ${detail}`,
      'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or user.max_user_namespaces > 0), or use the docker backend.',
      error,
    );
  }
  return { binary, ...(await limitsChecked) };
}

/** Whether Wave can make an attempt's cgroup here (it makes one and removes it), and the warning when it cannot; never rejects. */
async function checkCgroupLimits(limits: SandboxLimits): Promise<Omit<BubblewrapReadiness, 'binary'>> {
  try {
    const jail = await createCgroupJail(`wave-${ownerTag()}-probe`, limits);
    await jail.remove();
    return { enforceLimits: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      enforceLimits: false,
      warning: `runtime.sandbox.limits are not enforced by bubblewrap here: Wave cannot create a cgroup (${reason}). Run Wave as root, or use the docker backend, to enforce them.`,
    };
  }
}

/** Checks the Docker daemon answers and has the image; never pulls. */
export async function checkDocker(docker: Docker, image: string): Promise<void> {
  try {
    await Promise.race([docker.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), PROBE_TIMEOUT_MS).unref())]);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const hint =
      code === 'EACCES'
        ? 'Give this user access to the Docker socket (the docker group) or set DOCKER_HOST.'
        : 'Start the Docker daemon (dockerd) or set DOCKER_HOST to where it listens.';
    throw unavailable(`the Docker daemon is not answering: ${(error as Error).message}`, hint, error);
  }
  try {
    await docker.getImage(image).inspect();
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404)
      throw unavailable(`cannot inspect the image ${image}: ${(error as Error).message}`, 'Check that `docker image inspect` works.', error);
    throw unavailable(
      `the sandbox image ${image} is not on this machine (Wave never pulls at run time)`,
      `Build it with \`wave sandbox image${image === 'wave-sandbox:local' ? '' : ` --tag ${image}`}\`, or load the image you named in runtime.sandbox.docker_image.`,
    );
  }
  requireSocat();
}
