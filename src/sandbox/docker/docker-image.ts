import Docker from 'dockerode';
import { Readable } from 'node:stream';
import { pack } from 'tar-stream';
import { WaveError } from '../../core/errors/errors.js';
import { DEFAULT_SANDBOX_IMAGE } from '../defaults.js';
import { SANDBOX_USER } from '../identity-files.js';

export { DEFAULT_SANDBOX_IMAGE };

/** The daemon's socket when DOCKER_HOST is unset. */
const DEFAULT_SOCKET = '/var/run/docker.sock';

/** Where the Docker Engine API listens: a unix socket or a plain-HTTP TCP endpoint. */
type DockerEndpoint = { socketPath: string } | { host: string; port: number };

function dockerEndpoint(env: NodeJS.ProcessEnv): DockerEndpoint {
  const value = env.DOCKER_HOST?.trim();
  if (!value) return { socketPath: DEFAULT_SOCKET };
  if (value.startsWith('unix://')) return { socketPath: value.slice('unix://'.length) || DEFAULT_SOCKET };
  const url = value.startsWith('tcp://') ? URL.parse(value.replace(/^tcp:/, 'http:')) : null;
  if (!url?.hostname || !url.port) {
    throw new WaveError('sandbox_unavailable', `DOCKER_HOST=${value} is not a unix:// socket or a tcp://host:port address`, {
      hint: 'Set DOCKER_HOST to unix:///path/to/docker.sock or tcp://host:port, or unset it to use /var/run/docker.sock.',
    });
  }
  return { host: url.hostname, port: Number(url.port) };
}

/** The unix socket of the Docker daemon named by DOCKER_HOST (default /var/run/docker.sock), or undefined for tcp://. */
export function dockerSocketPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const endpoint = dockerEndpoint(env);
  return 'socketPath' in endpoint ? endpoint.socketPath : undefined;
}

/** A dockerode client for the daemon named by DOCKER_HOST (unix:///path or tcp://host:port), else /var/run/docker.sock. */
export function dockerClient(env: NodeJS.ProcessEnv = process.env): Docker {
  const endpoint = dockerEndpoint(env);
  // docker-modem also reads process.env.DOCKER_HOST itself, and a host it finds there beats a socketPath:
  // clearing host keeps `env` the only source.
  return new Docker('socketPath' in endpoint ? { socketPath: endpoint.socketPath, host: undefined } : { ...endpoint, protocol: 'http' });
}

/** The user and group a container may run as besides root and agent: whoever builds the image. */
export interface ImageUser {
  uid: number;
  gid: number;
}

function accountFiles({ uid, gid }: ImageUser): { passwd: string; group: string } {
  const passwd = ['root:x:0:0:root:/root:/bin/sh', `agent:x:${SANDBOX_USER.uid}:${SANDBOX_USER.gid}:agent:/home:/bin/sh`];
  const group = ['root:x:0:', `agent:x:${SANDBOX_USER.gid}:`];
  // Containers run as the caller's uid:gid so that workspace files stay theirs; a named entry lets tools that
  // look the user up (git, ssh, os.userInfo) work.
  if (uid !== 0 && uid !== SANDBOX_USER.uid) passwd.push(`wave:x:${uid}:${gid}:wave:/home:/bin/sh`);
  if (gid !== 0 && gid !== SANDBOX_USER.gid) group.push(`wave:x:${gid}:`);
  return { passwd: `${passwd.join('\n')}\n`, group: `${group.join('\n')}\n` };
}

/** The host-shim root filesystem as a tar: merged-/usr links, empty mount points, and passwd/group. */
export async function sandboxRootfsTar(user: ImageUser): Promise<Buffer> {
  // A fixed mtime makes the tar the same on every build for the same user.
  const mtime = new Date(0);
  const tar = pack();
  for (const dir of ['usr', 'tmp', 'etc', 'proc', 'sys', 'dev', 'run', 'home', 'work']) {
    tar.entry({ name: dir, type: 'directory', mode: dir === 'tmp' ? 0o1777 : 0o755, mtime });
  }
  // The host's /usr is bind-mounted at run time; these links make /bin/sh, /lib64/ld-linux… resolve into it.
  for (const link of ['bin', 'lib', 'lib64', 'sbin']) tar.entry({ name: link, type: 'symlink', linkname: `usr/${link}`, mtime });
  const { passwd, group } = accountFiles(user);
  tar.entry({ name: 'etc/passwd', mode: 0o644, mtime }, passwd);
  tar.entry({ name: 'etc/group', mode: 0o644, mtime }, group);
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The reference with an explicit tag; Docker parses it whole, so a malformed one fails before anything is imported. */
function tagged(reference: string): string {
  // A colon before the last slash is a registry's port, not a tag.
  return reference.lastIndexOf(':') > reference.lastIndexOf('/') ? reference : `${reference}:latest`;
}

async function imageId(docker: Docker, reference: string): Promise<string | undefined> {
  try {
    return (await docker.getImage(reference).inspect()).Id;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return undefined;
    throw error;
  }
}

function followProgress(docker: Docker, stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve())));
}

// Node's connect errors already name the socket or host:port, so the message need not repeat it.
function unavailable(error: unknown, tag: string): WaveError {
  const { code, statusCode, message } = error as { code?: string; statusCode?: number; message?: string };
  if (statusCode === 400) {
    return new WaveError('invalid_argument', `Docker refused the image name ${tag}: ${message?.trim()}`, {
      hint: 'Name the image like wave-sandbox:local (lowercase name, optional :tag).',
      cause: error,
    });
  }
  const hint =
    code === 'EACCES' || code === 'EPERM'
      ? 'Give this user access to the Docker socket (the docker group) or set DOCKER_HOST.'
      : code === 'ENOENT' || code === 'ECONNREFUSED'
        ? 'Start the Docker daemon (dockerd) or set DOCKER_HOST.'
        : 'Check that `docker version` reaches the daemon, or set DOCKER_HOST.';
  return new WaveError('sandbox_unavailable', `cannot build the sandbox image ${tag}: ${(message ?? String(error)).trim()}`, {
    hint,
    cause: error,
  });
}

/**
 * Builds the host-shim image: merged-/usr links, empty usr tmp etc proc sys dev run home work folders (tmp 1777),
 * /etc/passwd and /etc/group with root, `agent` (1000:1000) and `wave` for the caller's uid:gid when it is
 * neither. The host's /usr, /etc/ssl and /etc/alternatives are bind-mounted read-only at run time, so the image
 * stays ~10 KB. Imports it from a tar built in memory and tags it; never pulls. Returns the image id.
 */
export async function buildSandboxImage(docker: Docker, tag: string = DEFAULT_SANDBOX_IMAGE): Promise<string> {
  const user = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const tar = await sandboxRootfsTar(user);
  try {
    const previous = await imageId(docker, tag);
    await followProgress(docker, await docker.importImage(Readable.from(tar), { repo: tagged(tag) }));
    const { Id: id } = await docker.getImage(tag).inspect();
    // Each import makes a new id (it records the time); without this every rebuild would leave an untagged
    // image behind. Docker refuses, and so keeps, an image that is still tagged elsewhere or used by a container.
    if (previous && previous !== id)
      await docker
        .getImage(previous)
        .remove()
        .catch(() => undefined);
    return id;
  } catch (error) {
    throw unavailable(error, tag);
  }
}
