import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attemptFile, runEvents } from '../e2e/agents.js';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';
import { backendAvailable, sandboxRuntime, type TestBackend } from '../support/sandbox.js';
import { selfSignedCert } from '../support/self-signed-cert.js';

// End to end: real `wave run` processes whose sandboxed steps curl loopback servers of this test process through the
// egress proxy. Test names are resolved by the proxy itself (WAVE_EGRESS_RESOLVE), so nothing leaves the machine.
const RESOLVE = 'allowed.test=127.0.0.1,wild.test=127.0.0.1,private.test=10.0.0.1';
const PROXY = 'http://127.0.0.1:3128';
const STEP_TIMEOUT = 60_000;

/** A request one of the loopback servers received. */
interface Seen {
  server: 'http' | 'https';
  host?: string;
  url?: string;
}

let certDir: string;
let caPem: string;
let httpServer: http.Server;
let httpsServer: https.Server;
let seen: Seen[] = [];
const ports = { http: 0, https: 0 };

async function onLoopback(server: http.Server): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return (server.address() as AddressInfo).port;
}

/** A server that logs each request and answers `<name> <path>`. */
function logging(name: Seen['server']): http.RequestListener {
  return (req, res) => {
    seen.push({ server: name, host: req.headers.host, url: req.url });
    res.end(`hello from ${name} ${req.url}`);
  };
}

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'wave-egress-e2e-'));
  const pem = selfSignedCert(certDir, 'allowed.test');
  caPem = pem.cert.toString('utf8');
  httpServer = http.createServer(logging('http'));
  httpsServer = https.createServer(pem, logging('https'));
  ports.http = await onLoopback(httpServer);
  ports.https = await onLoopback(httpsServer);
});

afterAll(async () => {
  for (const server of [httpServer, httpsServer]) server?.closeAllConnections();
  await Promise.all([httpServer, httpsServer].map((server) => server && new Promise((ok) => server.close(ok))));
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

beforeEach(() => {
  seen = [];
});

/** One curl call of a step, printed to its stdout between markers so the test can pick out its body, status and exit. */
interface Probe {
  label: string;
  /** curl's arguments, as shell words. */
  args: string;
}

interface ProbeResult {
  body: string;
  status: number;
  exit: number;
}

const probe = (label: string, args: string): Probe => ({ label, args });

/** The shell text of a step: writes the test CA into its workspace, then runs each probe. */
function probeScript(probes: readonly Probe[]): string {
  const lines = probes.map((p) => `printf '=== %s\\n' ${p.label}; curl -sS -m 20 -w '\\nstatus=%{http_code}\\n' ${p.args} 2>&1; printf 'exit=%s\\n' "$?"`);
  return [`printf '%s\\n' "$CA_PEM" > ca.pem`, ...lines].join('\n');
}

/** The probes' results, by label, from a step's stdout. */
function parseProbes(stdout: string): Record<string, ProbeResult> {
  const results: Record<string, ProbeResult> = {};
  for (const block of stdout.split(/^=== /m).slice(1)) {
    const match = /^(\S+)\n([\s\S]*)\nstatus=(\d{3})\nexit=(\d+)\n?$/.exec(block);
    if (!match) throw new Error(`a probe's output is not in the expected form:\n${block}`);
    results[match[1]!] = { body: match[2]!, status: Number(match[3]), exit: Number(match[4]) };
  }
  return results;
}

interface StepSpec {
  id: string;
  probes: Probe[];
  /** A persona runs the probes as a prompt through the shell adapter; without one, they are a command step. */
  persona?: string;
}

/** The manifest: the shell adapter, personas with their own allowlists, and the sandbox with its default allowlist. */
function manifest(backend: TestBackend, defaults: readonly string[], personas: Record<string, readonly string[]> = {}): string {
  const personaLines = Object.entries(personas).map(([name, domains]) => `  ${name}: { adapter: shell, sandbox: { allowed_domains: ${JSON.stringify(domains)} } }\n`);
  return `kind: WaveManifest
metadata: { name: egress }
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
${personaLines.length ? `personas:\n${personaLines.join('')}` : ''}runtime:
  timeouts: { process_grace_seconds: 1 }
${sandboxRuntime(backend, `    default_allowed_domains: ${JSON.stringify(defaults)}\n`)}`;
}

/** A pipeline of independent steps, each given the test CA as CA_PEM. */
function pipeline(steps: readonly StepSpec[]): string {
  const body = steps.map(
    (step) => `  - id: ${step.id}
${step.persona ? `    persona: ${step.persona}\n` : ''}    env: { CA_PEM: ${JSON.stringify(caPem)} }
    exec:
      type: ${step.persona ? 'prompt' : 'command'}
      source: ${JSON.stringify(probeScript(step.probes))}
`,
  );
  return `kind: WavePipeline\nmetadata: { name: p }\nsteps:\n${body.join('')}`;
}

interface StepOutcome {
  probes: Record<string, ProbeResult>;
  egress: Array<Record<string, any>>;
  egressDenied: number;
}

/** Runs the steps with `wave run` and returns, per step, its probes' results, its egress events and its denial count. */
async function runSteps(
  backend: TestBackend,
  options: { defaults: readonly string[]; personas?: Record<string, readonly string[]>; steps: readonly StepSpec[] },
): Promise<Record<string, StepOutcome>> {
  const project = makeProject({ 'wave.yaml': manifest(backend, options.defaults, options.personas), 'pipelines/p.yaml': pipeline(options.steps) });
  try {
    const result = await runWave(['run', 'p'], { cwd: project, env: { WAVE_EGRESS_RESOLVE: RESOLVE } });
    expect(result.code, `wave run failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
    const record = latestRun(project);
    const events = runEvents(project, record);
    return Object.fromEntries(
      options.steps.map(({ id }) => [
        id,
        {
          probes: parseProbes(attemptFile(project, record, id, 1, 'stdout')),
          egress: events.filter((e) => e.type === 'egress' && e.stepId === id),
          egressDenied: record.steps[id]?.egressDenied ?? 0,
        },
      ]),
    );
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** Runs one command step with these probes. */
async function runProbes(backend: TestBackend, defaults: readonly string[], probes: Probe[]): Promise<StepOutcome> {
  const outcome = await runSteps(backend, { defaults, steps: [{ id: 'probe', probes }] });
  return outcome.probe!;
}

/** The egress events the proxy records for a refusal and an admission of host:port. */
const refused = (host: string, port: number, via: 'http' | 'connect', reason: string) =>
  expect.objectContaining({ type: 'egress', attempt: 1, host, port, allowed: false, via, reason });
const admitted = (host: string, port: number, via: 'http' | 'connect') => expect.objectContaining({ type: 'egress', attempt: 1, host, port, allowed: true, via });

/** A refused CONNECT: curl reports the tunnel's 403 and gives up (56) before any request, so %{http_code} stays 000. */
function expectTunnelRefused(result: ProbeResult | undefined): void {
  expect(result).toMatchObject({ status: 0, exit: 56 });
  expect(result!.body).toContain('CONNECT tunnel failed, response 403');
}

describe.each(['bubblewrap', 'docker'] as const)('egress from a %s sandbox, end to end', (backend) => {
  describe.skipIf(!backendAvailable(backend))(backend, () => {
    it(
      'refuses a host off the allowlist with a 403 naming the allowlist, records the denial and counts it',
      async () => {
        const step = await runProbes(backend, ['allowed.test'], [probe('plain', 'http://denied.example/'), probe('tls', 'https://denied.example/')]);
        expect(step.probes.plain).toMatchObject({ status: 403, exit: 0 });
        expect(step.probes.plain!.body).toContain("denied.example:80 is not on this step's allowlist (no entry matches it). Allowed: allowed.test.");
        expect(step.probes.plain!.body).toContain('runtime.sandbox.default_allowed_domains');
        expectTunnelRefused(step.probes.tls);
        expect(step.egress).toEqual([refused('denied.example', 80, 'http', 'no entry matches it'), refused('denied.example', 443, 'connect', 'no entry matches it')]);
        expect(step.egressDenied).toBe(2);
      },
      STEP_TIMEOUT,
    );

    it(
      'reaches an exactly listed test host over HTTP and HTTPS through the proxy',
      async () => {
        const step = await runProbes(
          backend,
          ['allowed.test'],
          [probe('plain', `http://allowed.test:${ports.http}/plain`), probe('tls', `--cacert ca.pem https://allowed.test:${ports.https}/tls`)],
        );
        expect(step.probes.plain).toEqual({ body: 'hello from http /plain', status: 200, exit: 0 });
        expect(step.probes.tls).toEqual({ body: 'hello from https /tls', status: 200, exit: 0 });
        expect(seen).toEqual([
          { server: 'http', host: `allowed.test:${ports.http}`, url: '/plain' },
          { server: 'https', host: `allowed.test:${ports.https}`, url: '/tls' },
        ]);
        expect(step.egress).toEqual([admitted('allowed.test', ports.http, 'http'), admitted('allowed.test', ports.https, 'connect')]);
        expect(step.egressDenied).toBe(0);
      },
      STEP_TIMEOUT,
    );

    it(
      'has no direct route to a loopback service of the host',
      async () => {
        // Even listed, the address is reachable only through the proxy: the sandbox has a loopback of its own.
        const step = await runProbes(backend, ['allowed.test', `127.0.0.1:${ports.http}`], [probe('direct', `--noproxy '*' http://127.0.0.1:${ports.http}/direct`)]);
        // Nothing listens on that port inside: the connection is refused (curl 7) and the proxy never hears of it.
        expect(step.probes.direct).toMatchObject({ status: 0, exit: 7 });
        expect(seen).toEqual([]);
        expect(step.egress).toEqual([]);
        expect(step.egressDenied).toBe(0);
      },
      STEP_TIMEOUT,
    );

    it.each([
      { listed: 'another port of the address', entry: () => `127.0.0.1:${ports.https}`, reason: 'no entry matches it' },
      { listed: 'a wildcard matching it', entry: () => '*.0.0.1', reason: 'an IP address must be listed exactly' },
    ])(
      'refuses an IP literal through the proxy when only $listed is listed',
      async ({ entry, reason }) => {
        const step = await runProbes(backend, ['allowed.test', entry()], [probe('literal', `--noproxy '' -x ${PROXY} http://127.0.0.1:${ports.http}/literal`)]);
        expect(step.probes.literal).toMatchObject({ status: 403, exit: 0 });
        expect(step.probes.literal!.body).toContain(`127.0.0.1:${ports.http} is not on this step's allowlist (${reason})`);
        expect(seen).toEqual([]);
        expect(step.egress).toEqual([refused('127.0.0.1', ports.http, 'http', reason)]);
        expect(step.egressDenied).toBe(1);
      },
      STEP_TIMEOUT,
    );

    it(
      'lets an IP literal through the proxy when it is listed with its port',
      async () => {
        const step = await runProbes(backend, [`127.0.0.1:${ports.http}`], [probe('literal', `--noproxy '' -x ${PROXY} http://127.0.0.1:${ports.http}/literal`)]);
        expect(step.probes.literal).toEqual({ body: 'hello from http /literal', status: 200, exit: 0 });
        expect(seen).toEqual([{ server: 'http', host: `127.0.0.1:${ports.http}`, url: '/literal' }]);
        expect(step.egress).toEqual([admitted('127.0.0.1', ports.http, 'http')]);
        expect(step.egressDenied).toBe(0);
      },
      STEP_TIMEOUT,
    );

    it(
      'refuses a wildcard match that resolves to a private address, before dialling it',
      async () => {
        const step = await runProbes(backend, ['*.test'], [probe('plain', 'http://private.test/'), probe('tls', 'https://private.test/')]);
        const reason = 'it resolves to 10.0.0.1, a private address, which must be listed exactly';
        // The proxy's own 403, judged on the resolved address: a dial of 10.0.0.1 would have ended in a 502 (or curl's
        // -m), and the events would show it as allowed.
        expect(step.probes.plain).toMatchObject({ status: 403, exit: 0 });
        expect(step.probes.plain!.body).toContain(reason);
        expectTunnelRefused(step.probes.tls);
        expect(step.egress).toEqual([refused('private.test', 80, 'http', reason), refused('private.test', 443, 'connect', reason)]);
        expect(step.egressDenied).toBe(2);
      },
      STEP_TIMEOUT,
    );

    it(
      'refuses a wildcard match that resolves to loopback, which only an exact entry may reach',
      async () => {
        const step = await runProbes(
          backend,
          ['*.test'],
          [probe('wild', `http://wild.test:${ports.http}/wild`), probe('tls', `--cacert ca.pem https://allowed.test:${ports.https}/tls`)],
        );
        const reason = 'it resolves to 127.0.0.1, a loopback address, which must be listed exactly';
        expect(step.probes.wild).toMatchObject({ status: 403, exit: 0 });
        expect(step.probes.wild!.body).toContain(reason);
        expectTunnelRefused(step.probes.tls);
        expect(seen).toEqual([]);
        expect(step.egress).toEqual([refused('wild.test', ports.http, 'http', reason), refused('allowed.test', ports.https, 'connect', reason)]);
        expect(step.egressDenied).toBe(2);
      },
      STEP_TIMEOUT,
    );

    it(
      "adds a persona's allowed_domains to the defaults for that persona's steps only",
      async () => {
        const probes = [
          probe('byDefault', `--noproxy '' -x ${PROXY} http://127.0.0.1:${ports.http}/default`),
          probe('byPersona', `http://allowed.test:${ports.http}/persona`),
          probe('offList', 'http://denied.example/'),
        ];
        const steps = await runSteps(backend, {
          defaults: [`127.0.0.1:${ports.http}`],
          personas: { fetcher: ['allowed.test'] },
          steps: [
            { id: 'agent', persona: 'fetcher', probes },
            { id: 'command', probes },
          ],
        });
        const { agent, command } = steps as Record<'agent' | 'command', StepOutcome>;
        expect(agent.probes.byDefault).toEqual({ body: 'hello from http /default', status: 200, exit: 0 });
        expect(agent.probes.byPersona).toEqual({ body: 'hello from http /persona', status: 200, exit: 0 });
        expect(agent.probes.offList!.body).toContain(`Allowed: 127.0.0.1:${ports.http}, allowed.test. `);
        expect(agent.egress).toEqual([
          admitted('127.0.0.1', ports.http, 'http'),
          admitted('allowed.test', ports.http, 'http'),
          refused('denied.example', 80, 'http', 'no entry matches it'),
        ]);
        expect(agent.egressDenied).toBe(1);

        expect(command.probes.byDefault).toMatchObject({ status: 200, exit: 0 });
        expect(command.probes.byPersona).toMatchObject({ status: 403, exit: 0 });
        expect(command.probes.byPersona!.body).toContain(`Allowed: 127.0.0.1:${ports.http}. `);
        expect(command.egress).toEqual([
          admitted('127.0.0.1', ports.http, 'http'),
          refused('allowed.test', ports.http, 'http', 'no entry matches it'),
          refused('denied.example', 80, 'http', 'no entry matches it'),
        ]);
        expect(command.egressDenied).toBe(2);
        expect(seen.map((s) => s.url).sort()).toEqual(['/default', '/default', '/persona']);
      },
      STEP_TIMEOUT,
    );
  });
});
