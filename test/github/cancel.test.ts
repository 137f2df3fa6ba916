import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandPipeline, makeProject } from '../support/project.js';
import { runDirs } from '../support/runs.js';
import { startAction, waitFor } from './run-action.js';

// A registry that takes npm's requests and never answers: `install-agents` hangs until the action is cancelled.
let registry: http.Server;
const requests: string[] = [];
const openSockets = new Set<Socket>();

beforeAll(async () => {
  registry = http.createServer((req) => void requests.push(req.url ?? ''));
  registry.on('connection', (socket: Socket) => {
    openSockets.add(socket);
    socket.on('close', () => openSockets.delete(socket));
  });
  await new Promise<void>((ok) => registry.listen(0, '127.0.0.1', ok));
});

afterAll(async () => {
  registry.closeAllConnections();
  await new Promise((ok) => registry.close(ok));
});

describe('the GitHub Action cancelled before its run starts', () => {
  it('ends a SIGINT during install-agents with conclusion=cancelled and a message, stops npm, and runs nothing', async () => {
    const project = makeProject({ 'pipelines/would-run.yaml': commandPipeline('would-run', [['echo', [], 'echo ran']]) });
    const npmHome = mkdtempSync(join(tmpdir(), 'wave-npm-'));
    const npmEnv = {
      npm_config_registry: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`,
      // Nothing reaches the machine's global folder or cache, even if the cancel were lost.
      npm_config_prefix: join(npmHome, 'prefix'),
      npm_config_cache: join(npmHome, 'cache'),
    };
    const { child, finished } = startAction(project, { pipeline: 'would-run', 'install-agents': 'claude' }, npmEnv);
    await waitFor(() => requests.length > 0);
    child.kill('SIGINT');
    const run = await finished;

    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('cancelled');
    expect(run.outputs['run-id']).toBeUndefined();
    expect(run.stdout).toMatch(/^::warning title=Wave%3A cancelled::SIGINT arrived while installing the agent CLIs, before the run started: no step ran\.$/m);
    // The warning says why: the job's failure is a plain line, not a second annotation.
    expect(run.stdout).toMatch(/^Wave: the run was cancelled\.$/m);
    expect(run.stdout).not.toContain('::error::');
    expect(runDirs(project)).toEqual([]);
    // npm was stopped with the action, not left holding its request.
    await waitFor(() => openSockets.size === 0, 10_000);
  }, 60_000);
});
