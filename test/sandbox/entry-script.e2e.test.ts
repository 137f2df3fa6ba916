import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { entryScript, INSIDE_DIR, type InsideForward } from '../../src/sandbox/entry-script.js';
import { ReadyFifos } from '../../src/sandbox/ready-fifos.js';
import { backendAvailable } from '../support/sandbox.js';

const run = promisify(execFile);
const fifos = new ReadyFifos();
const servers: net.Server[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  await fifos.close();
});

/** An attempt folder with the entry script of `forwards`, their FIFOs, and a unix socket answering `name` on each socket. */
async function room(forwards: readonly InsideForward[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wave-entry-'));
  for (const socket of new Set(forwards.map((f) => f.socket))) {
    const server = net.createServer((client) => client.end(`${socket}\n`));
    servers.push(server);
    await new Promise<void>((listening) => server.listen(join(dir, socket), listening));
  }
  for (const f of forwards) await fifos.lend(join(dir, f.ready));
  writeFileSync(join(dir, 'entry.sh'), entryScript(forwards));
  return dir;
}

/** Runs `program` through the entry script in a sandbox with no network, the folder at INSIDE_DIR. */
async function throughEntry(dir: string, program: string): Promise<string> {
  const args = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/run', '--bind', dir, INSIDE_DIR];
  const { stdout } = await run('bwrap', [...args, '--', '/bin/sh', `${INSIDE_DIR}/entry.sh`, '/bin/sh', '-c', program], { timeout: 10_000 });
  return stdout;
}

describe.skipIf(!backendAvailable('bubblewrap'))("the sandbox's entry script", () => {
  it('starts the program only once every forwarder listens: its first connections, made at once, get through', async () => {
    const forwards = [
      { port: 3128, socket: 'proxy.sock', ready: 'ready-3128' },
      { port: 8080, socket: 'endpoint-8080.sock', ready: 'ready-8080' },
    ];
    const dir = await room(forwards);
    // No retry: a port not listening yet would refuse the connection.
    const stdout = await throughEntry(dir, 'socat -u TCP:127.0.0.1:3128 - && socat -u TCP:127.0.0.1:8080 -');
    expect(stdout).toBe('proxy.sock\nendpoint-8080.sock\n');
  });

  it('starts the program when a forwarder cannot listen, rather than wait for it', async () => {
    // The second forwarder finds the port taken and exits: its FIFO closes, which ends the wait.
    const dir = await room([
      { port: 3128, socket: 'proxy.sock', ready: 'ready-a' },
      { port: 3128, socket: 'proxy.sock', ready: 'ready-b' },
    ]);
    expect(await throughEntry(dir, 'echo started')).toBe('started\n');
  });
});
