import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../e2e/agents.js';
import { runDoctor } from '../support/doctor.js';
import { closedPort } from '../support/closed-port.js';

/** A server that answers every request with `status`, or never answers when `status` is undefined; it keeps the keys it was sent. */
async function fixedServer(status?: number): Promise<{ url: string; server: Server; keys: Array<string | undefined> }> {
  const keys: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    keys.push(req.headers.authorization);
    if (status !== undefined) res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, keys };
}

/** `wave doctor` on a manifest of `llm` adapters, LLM_KEY set. */
function doctor(adapters: Record<string, string>) {
  const lines = Object.entries(adapters).map(([name, fields]) => `  ${name}: { type: llm, model: m, ${fields} }`);
  return runDoctor(`kind: WaveManifest\nmetadata: { name: d }\nadapters:\n${lines.join('\n')}\n`, { LLM_KEY: 'secret' });
}

describe('wave doctor: does an llm adapter’s server answer', () => {
  let model: ModelServer;
  const servers: Server[] = [];
  beforeAll(async () => (model = await startModelServer()));
  afterAll(async () => {
    await model?.close();
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('the scripted model server answers: ok, saying what it answered', async () => {
    const { code, checks, text } = await doctor({ up: `base_url: "${model.url}/s/text/v1"` });
    expect(code).toBe(0);
    expect(checks.up).toMatchObject({ usable: true, server: { ok: true, detail: `GET ${model.url}/s/text/v1/models answered 404` } });
    expect(model.requests.some((r) => r.method === 'GET' && r.url === '/s/text/v1/models')).toBe(true);
    expect(text).toMatch(/^ok {3}up \(llm\)\n[\s\S]*\n {2}server: GET .*\/models answered 404/m);
  });

  it('a refused port: FAIL with the URL and the hint (it used to say ok)', async () => {
    const port = await closedPort();
    const { code, checks, text } = await doctor({ down: `base_url: "http://127.0.0.1:${port}/v1"` });
    expect(code).toBe(1);
    expect(checks.down).toMatchObject({ usable: false, problems: [`model server: GET http://127.0.0.1:${port}/v1/models failed: ECONNREFUSED`] });
    expect(text).toMatch(/^FAIL down \(llm\)$/m);
    expect(text).toContain(`problem: model server: GET http://127.0.0.1:${port}/v1/models failed: ECONNREFUSED`);
    expect(text).toContain('hint: Start the model server, or point adapters.down.base_url at the one that runs (…/v1).');
  });

  it('a server that never answers: FAIL after the probe’s timeout; one that refuses the key: FAIL naming api_key_env', async () => {
    const silent = await fixedServer();
    const refusing = await fixedServer(401);
    servers.push(silent.server, refusing.server);
    const { code, checks } = await doctor({ silent: `base_url: "${silent.url}/v1"`, refusing: `base_url: "${refusing.url}/v1", api_key_env: LLM_KEY` });
    expect(code).toBe(1);
    expect(checks.silent!.problems).toEqual([`model server: GET ${silent.url}/v1/models failed: no answer within 3 s`]);
    expect(checks.refusing!.problems).toEqual([`model server: GET ${refusing.url}/v1/models answered 401: the server refused the key`]);
    expect(refusing.keys[0]).toBe('Bearer secret');
    expect(checks.refusing!.hints).toEqual(['Check the key in the variable adapters.refusing.api_key_env names, or set api_key_env if the server needs one.']);
  });
});
