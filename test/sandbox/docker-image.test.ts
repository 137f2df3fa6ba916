import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { extract, type Headers } from 'tar-stream';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { buildSandboxImage, DEFAULT_SANDBOX_IMAGE, dockerClient, dockerSocketPath, sandboxRootfsTar } from '../../src/sandbox/docker/docker-image.js';
import { runWave } from '../support/cli.js';
import { requirementMet } from '../support/requirement.js';

/** The tar's entries by name, with the text of the files. */
async function tarEntries(tar: Buffer): Promise<Map<string, Headers & { text: string }>> {
  const entries = new Map<string, Headers & { text: string }>();
  const reader = extract();
  reader.on('entry', (header: Headers, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      entries.set(header.name, { ...header, text: Buffer.concat(chunks).toString('utf8') });
      next();
    });
  });
  await new Promise((resolve, reject) => reader.on('finish', resolve).on('error', reject).end(tar));
  return entries;
}

describe("the sandbox image's root filesystem", () => {
  it('holds the merged-/usr links, empty folders with a sticky /tmp, and root and agent accounts; it stays small', async () => {
    const tar = await sandboxRootfsTar({ uid: 0, gid: 0 });
    const entries = await tarEntries(tar);
    expect(tar.length).toBeLessThan(16 * 1024);
    for (const link of ['bin', 'lib', 'lib64', 'sbin']) expect(entries.get(link)).toMatchObject({ type: 'symlink', linkname: `usr/${link}` });
    for (const dir of ['usr', 'etc', 'proc', 'sys', 'dev', 'run', 'home', 'work']) expect(entries.get(dir)).toMatchObject({ type: 'directory', mode: 0o755 });
    expect(entries.get('tmp')).toMatchObject({ type: 'directory', mode: 0o1777 });
    expect(entries.get('etc/passwd')!.text).toBe('root:x:0:0:root:/root:/bin/sh\nagent:x:1000:1000:agent:/home:/bin/sh\n');
    expect(entries.get('etc/group')!.text).toBe('root:x:0:\nagent:x:1000:\n');
  });

  it("names the builder's uid and gid `wave` when they are neither root's nor agent's", async () => {
    const entries = await tarEntries(await sandboxRootfsTar({ uid: 1234, gid: 1000 }));
    expect(entries.get('etc/passwd')!.text).toContain('\nwave:x:1234:1000:wave:/home:/bin/sh\n');
    expect(entries.get('etc/group')!.text).not.toContain('wave');
  });
});

describe('the Docker client', () => {
  afterEach(() => void vi.unstubAllEnvs());

  it("talks to DOCKER_HOST's unix socket or tcp address, else /var/run/docker.sock", () => {
    expect(dockerSocketPath({})).toBe('/var/run/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toBe('/run/user/1000/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'tcp://127.0.0.1:2375' })).toBeUndefined();
    expect(dockerClient({ DOCKER_HOST: 'tcp://127.0.0.1:2375' }).modem).toMatchObject({ host: '127.0.0.1', port: 2375 });
    expect(() => dockerClient({ DOCKER_HOST: 'ssh://builder' })).toThrow(expect.objectContaining({ code: 'sandbox_unavailable' }));
  });

  it('takes the address from the env it is given, not from a DOCKER_HOST of this process', () => {
    vi.stubEnv('DOCKER_HOST', 'tcp://10.0.0.1:2375');
    const modem = dockerClient({ DOCKER_HOST: 'unix:///tmp/other.sock' }).modem as { host?: string; socketPath?: string };
    expect(modem).toMatchObject({ host: undefined, socketPath: '/tmp/other.sock' });
  });

  it('turns an absent daemon into sandbox_unavailable with a hint to start it', async () => {
    const error = await buildSandboxImage(dockerClient({ DOCKER_HOST: 'unix:///nonexistent/docker.sock' }), 'wave-sandbox:never').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaveError);
    expect(error).toMatchObject({ code: 'sandbox_unavailable', hint: 'Start the Docker daemon (dockerd) or set DOCKER_HOST.' });
  });
});

const docker = dockerClient();
const daemonUp = await docker.ping().then(
  () => true,
  () => false,
);
const dockerReady = requirementMet(
  'the Docker daemon',
  daemonUp,
  `nothing answers at ${dockerSocketPath() ?? process.env.DOCKER_HOST}: install docker.io and start dockerd (bash .ci/sandbox-up.sh does both)`,
);

/** Collects what a container writes to one of its streams. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => void (chunks.push(chunk), done()) });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `script` with the host's node in `image`, locked down the way the docker sandbox runs steps. */
async function runNode(client: Docker, image: string, user: string, script: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const [out, err] = [collector(), collector()];
  const [result, container] = (await client.run(image, ['/usr/bin/node', '-e', script], [out.stream, err.stream], {
    // dockerode's run allocates a terminal unless told not to, and that would merge stderr into stdout.
    Tty: false,
    User: user,
    HostConfig: {
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Binds: ['/usr:/usr:ro', '/etc/ssl:/etc/ssl:ro', '/etc/alternatives:/etc/alternatives:ro'],
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': '' },
    },
  })) as [{ StatusCode: number }, Docker.Container];
  await container.remove();
  return { status: result.StatusCode, stdout: out.text(), stderr: err.text() };
}

describe.skipIf(!dockerReady)('the sandbox image, built and run by a real Docker daemon', () => {
  const suffix = randomBytes(4).toString('hex');
  const tag = `wave-sandbox:test-${suffix}`;
  const cliTag = `wave-sandbox:test-${suffix}-cli`;
  afterAll(async () => {
    for (const name of [tag, cliTag])
      await docker
        .getImage(name)
        .remove()
        .catch(() => undefined);
  });

  it("runs the host's node without a network, capabilities or a writable root, as the builder and as agent", async () => {
    const id = await buildSandboxImage(docker, tag);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await docker.getImage(tag).inspect()).Size).toBeLessThan(16 * 1024);
    const [uid, gid] = [process.getuid!(), process.getgid!()];
    const builder = await runNode(docker, tag, `${uid}:${gid}`, 'console.log(require("os").userInfo().uid)');
    expect(builder).toEqual({ status: 0, stdout: `${uid}\n`, stderr: '' });
    const agent = await runNode(docker, tag, '1000:1000', 'const u = require("os").userInfo(); console.log(u.username, u.homedir)');
    expect(agent).toEqual({ status: 0, stdout: 'agent /home\n', stderr: '' });
  });

  it('replaces the image under the same tag on a rebuild, leaving no untagged image behind', async () => {
    const first = await buildSandboxImage(docker, tag);
    const second = await buildSandboxImage(docker, tag);
    expect(second).not.toBe(first);
    await expect(docker.getImage(first).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('`wave sandbox image --tag` builds the image and prints its tag and short id', async () => {
    const result = await runWave(['sandbox', 'image', '--tag', cliTag]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const { Id } = await docker.getImage(cliTag).inspect();
    expect(result.stdout).toBe(`built ${cliTag} (${Id.slice('sha256:'.length, 'sha256:'.length + 12)})`);
  });
});

describe('`wave sandbox image` without a daemon', () => {
  it('exits 1 with sandbox_unavailable and the hint; the default tag is wave-sandbox:local', async () => {
    const result = await runWave(['sandbox', 'image'], { env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `sandbox_unavailable: cannot build the sandbox image ${DEFAULT_SANDBOX_IMAGE}: connect ENOENT /nonexistent/docker.sock\n  hint: Start the Docker daemon (dockerd) or set DOCKER_HOST.`,
    );
  });
});
