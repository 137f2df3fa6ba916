import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { requirementMet } from './requirement.js';

const SERVER = fileURLToPath(new URL('./model-server.mjs', import.meta.url));

/** The scripted model server on another host: its URL, and close() that ends it and the namespace it ran in. */
export interface RemoteModelServer {
  url: string;
  close(): void;
}

/** Whether this machine can make a network namespace for a server with an address of its own (root, iproute2). */
export function namespacesAvailable(): boolean {
  const name = `wave-probe-${randomBytes(3).toString('hex')}`;
  let works: boolean;
  try {
    execFileSync('ip', ['netns', 'add', name], { stdio: 'ignore' });
    execFileSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
    works = true;
  } catch {
    works = false;
  }
  return requirementMet('ip netns', works, 'run the tests as root with iproute2 installed (apt-get install iproute2)');
}

/**
 * Starts the scripted model server in a network namespace of its own, joined to this machine by a veth pair: its
 * address is another host's, so Wave treats it as a remote endpoint (this machine's own addresses are local to it).
 */
export async function startRemoteModelServer(): Promise<RemoteModelServer> {
  const id = randomBytes(3).toString('hex');
  const ns = `wave-remote-${id}`;
  const [hostSide, nsSide] = [`wvh${id}`, `wvn${id}`];
  const subnet = `10.${200 + (parseInt(id.slice(0, 2), 16) % 50)}.${parseInt(id.slice(2, 4), 16)}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  ip('netns', 'add', ns);
  let server: ChildProcess | undefined;
  const close = () => {
    server?.kill('SIGKILL');
    // Deleting the namespace removes its end of the pair, and with it the host's.
    execFileSync('ip', ['netns', 'delete', ns], { stdio: 'ignore' });
  };
  try {
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide);
    ip('link', 'set', nsSide, 'netns', ns);
    ip('addr', 'add', `${subnet}.1/30`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    ip('-n', ns, 'addr', 'add', `${subnet}.2/30`, 'dev', nsSide);
    ip('-n', ns, 'link', 'set', nsSide, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    server = spawn('ip', ['netns', 'exec', ns, process.execPath, SERVER, '--host', `${subnet}.2`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server!.stdout! }).once('line', resolve);
      server!.once('exit', (code) => reject(new Error(`the model server in ${ns} exited with ${code}`)));
    });
    return { url, close };
  } catch (error) {
    close();
    throw error;
  }
}
