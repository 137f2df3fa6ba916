import { request } from 'node:http';
import type { Socket } from 'node:net';
import type Docker from 'dockerode';

/**
 * Attaches to a created container's stdio over a raw hijacked connection with no request body: docker-modem's
 * attach sends its options as a body, which Podman feeds to the container's stdin before the prompt. `signal` ends the
 * request (a cancel, a bound), but not the stream it hands back.
 */
export function attachContainer(docker: Docker, id: string, withStdin: boolean, signal?: AbortSignal): Promise<Socket> {
  const modem = docker.modem as unknown as { socketPath?: string; host?: string; port?: number | string };
  const query = `stream=1&stdout=1&stderr=1${withStdin ? '&stdin=1' : ''}`;
  return new Promise((resolve, reject) => {
    const req = request({
      ...(modem.socketPath ? { socketPath: modem.socketPath } : { host: modem.host, port: modem.port }),
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/attach?${query}`,
      headers: { Connection: 'Upgrade', Upgrade: 'tcp', 'Content-Type': 'application/vnd.docker.raw-stream' },
    });
    // Not the request's own `signal` option: that would also destroy the stream once it is handed over.
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('attach aborted'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('upgrade', (_response, socket, head) => {
      signal?.removeEventListener('abort', onAbort);
      if (head.length) socket.unshift(head);
      resolve(socket);
    });
    req.on('response', (response) => reject(new Error(`attach to container ${id.slice(0, 12)} answered HTTP ${response.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}
