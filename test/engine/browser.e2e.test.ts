import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/adapters/browser/chromium.js';
import type { RunEvent } from '../../src/events.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { requirementMet } from '../support/requirement.js';
import { latestEvents, latestRun, runDirs } from '../support/runs.js';
import { backendAvailable, sandboxRuntime } from '../support/sandbox.js';

// Wave's built-in browser adapter, driving the system's Chromium against a page this test serves on 127.0.0.1.

const hasChromium = requirementMet('chromium', findChromium(undefined, process.env).path !== undefined, 'install the Debian package chromium (apt-get install chromium)');

const PAGE = '<html><head><title>Runs</title></head><body><h1>Hello</h1><input id="q"></body></html>';

/** Loads the run's input, reads the heading, types into the field and takes a screenshot; the results fill evidence.json. */
const CAPTURE = `kind: WavePipeline
metadata: { name: capture }
steps:
  - id: capture
    adapter: browser
    exec:
      source: |
        [
          {"action": "navigate", "url": "{{ input }}", "wait_for": "h1"},
          {"action": "get_text", "selector": "h1"},
          {"action": "type", "selector": "#q", "value": "wave"},
          {"action": "screenshot"}
        ]
    output_artifacts:
      - { name: evidence, path: .agents/output/evidence.json, type: json }
`;

let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.setHeader('content-type', 'text/html').end(PAGE));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

const toolEvents = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'step_event' && (e.event.kind === 'tool_use' || e.event.kind === 'tool_result') ? [e.event] : []));

describe.runIf(hasChromium)('a browser step', () => {
  it('loads a page on 127.0.0.1, reads its text, and saves a screenshot as an artifact; each action is a tool event', async () => {
    const project = makeProject({ 'pipelines/capture.yaml': CAPTURE });
    const run = await runWave(['run', 'capture', '--input', `http://127.0.0.1:${port}/`], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const dir = runDirs(project)[0]!;
    const shot = readFileSync(join(dir, 'artifacts', 'capture', 'screenshot-1.png'));
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    const evidence = JSON.parse(readFileSync(join(dir, 'artifacts', 'capture', 'evidence.json'), 'utf8')) as Array<{
      action: string;
      status: string;
      data: Record<string, unknown>;
    }>;
    expect(evidence.map((r) => [r.action, r.status])).toEqual([
      ['navigate', 'success'],
      ['get_text', 'success'],
      ['type', 'success'],
      ['screenshot', 'success'],
    ]);
    expect(evidence[0]!.data).toMatchObject({ title: 'Runs', status: 200 });
    expect(evidence[1]!.data).toEqual({ text: 'Hello' });
    expect(evidence[3]!.data).toMatchObject({ path: '.agents/output/screenshots/capture-1.png', format: 'png', bytes: shot.length });
    const tools = toolEvents(latestEvents(project));
    expect(tools.filter((e) => e.kind === 'tool_use').map((e) => [e.name, e.target])).toEqual([
      ['browser.navigate', `http://127.0.0.1:${port}/`],
      ['browser.get_text', 'h1'],
      ['browser.type', '#q'],
      ['browser.screenshot', undefined],
    ]);
    expect(tools.find((e) => e.kind === 'tool_result' && e.id === 'browser-2')).toMatchObject({ isError: false, content: 'Hello' });
    const saved = latestEvents(project).flatMap((e) => (e.type === 'artifact_saved' ? [e.name] : []));
    expect(saved.sort()).toEqual(['evidence', 'screenshot-1']);
  });

  it('fails the step at the first action that fails, naming it, and retries it as it was', async () => {
    const pipeline = CAPTURE.replace('"selector": "h1"', '"selector": "#absent", "timeout_ms": 300').replace(
      '    output_artifacts:',
      '    retry: { max_attempts: 2, base_delay: 0s }\n    output_artifacts:',
    );
    const project = makeProject({ 'pipelines/capture.yaml': pipeline });
    const run = await runWave(['run', 'capture', '--input', `http://127.0.0.1:${port}/`], { cwd: project });
    expect(run.code).toBe(1);
    const step = latestRun(project).steps.capture!;
    expect(step.failure).toMatchObject({ class: 'browser_action_failed' });
    expect(step.failure?.message).toMatch(/^browser action 2 \(get_text\) failed: "#absent": .*Timeout 300ms/);
    expect(step.attempts).toHaveLength(2);
  });
});

describe.runIf(hasChromium && backendAvailable('bubblewrap'))("a browser step's egress", () => {
  const manifest = (allowed: string) => `${SHELL_MANIFEST}${sandboxRuntime('bubblewrap', `    default_allowed_domains: ["${allowed}"]\n`)}`;

  it('goes through the egress proxy: a listed host is reached, a host outside the allowlist is refused by name', async () => {
    const project = makeProject({ 'wave.yaml': manifest(`127.0.0.1:${port}`), 'pipelines/capture.yaml': CAPTURE });
    const allowed = await runWave(['run', 'capture', '--input', `http://127.0.0.1:${port}/`], { cwd: project });
    expect(allowed.code, allowed.stderr).toBe(0);
    const reached = latestEvents(project).filter((e) => e.type === 'egress' && e.host === '127.0.0.1' && e.port === port);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.every((e) => e.type === 'egress' && e.allowed)).toBe(true);
    // Chromium's own calls home (sign-in, components, network time, autofill) are switched off: the page's host is the only one asked for.
    const hosts = latestEvents(project).flatMap((e) => (e.type === 'egress' ? [`${e.host}:${e.port}`] : []));
    expect([...new Set(hosts)]).toEqual([`127.0.0.1:${port}`]);

    const refused = await runWave(['run', 'capture', '--input', `http://localhost:${port}/`], { cwd: project });
    expect(refused.code).toBe(1);
    const step = latestRun(project).steps.capture!;
    expect(step.failure).toMatchObject({ class: 'browser_action_failed' });
    expect(step.failure?.message).toContain(`localhost:${port} is outside the step's egress allowlist`);
    expect(latestEvents(project).some((e) => e.type === 'egress' && e.host === 'localhost' && !e.allowed)).toBe(true);
  });
});

describe('a browser step that is wrong before it runs', () => {
  it('is refused by `wave validate` at the entry, with a hint, and so are keys that would do nothing', async () => {
    const project = makeProject({
      'pipelines/bad.yaml': `kind: WavePipeline
metadata: { name: bad }
steps:
  - id: capture
    adapter: browser
    model: cheapest
    exec:
      source: |
        [
          {"action": "navigate"},
          {"action": "click", "selector": "#a", "url": "x"}
        ]
`,
    });
    const checked = await runWave(['validate'], { cwd: project });
    expect(checked.code).toBe(2);
    const text = checked.stdout + checked.stderr;
    const lines = [
      'pipelines/bad.yaml:6:12: pipeline_invalid: step `capture` runs on the browser adapter, so its `model` would do nothing',
      "pipelines/bad.yaml:10:11: pipeline_invalid: step `capture`'s browser action list: action 1: navigate requires `url`",
      "pipelines/bad.yaml:11:11: pipeline_invalid: step `capture`'s browser action list: action 2: click takes no `url`",
      'hint: Give exec.source as a JSON array of actions',
    ];
    for (const line of lines) expect(text).toContain(line);
    const adapter = makeProject({ 'wave.yaml': SHELL_MANIFEST.replace('adapters:\n', 'adapters:\n  chrome: { type: browser, binary: chromium, model: x }\n') });
    const manifest = await runWave(['validate'], { cwd: adapter });
    expect(manifest.code).toBe(2);
    expect(manifest.stdout + manifest.stderr).toContain('wave.yaml:4:46: manifest_invalid: adapter `chrome` is a browser adapter, so its `model` would do nothing');
  });
});

describe('wave doctor', () => {
  it('reports the browser, and fails when a pipeline uses it and no Chromium is found, naming the package', async () => {
    const project = makeProject({ 'pipelines/capture.yaml': CAPTURE });
    const missing = await runWave(['doctor'], { cwd: project, env: { WAVE_CHROMIUM: '/nonexistent/chromium' } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      'FAIL browser (chromium, for browser steps)\n  used by: pipelines/capture.yaml\n  problem: no Chromium found (looked for /nonexistent/chromium)',
    );
    expect(missing.stdout).toContain('the Debian package chromium');
    if (!hasChromium) return;
    const found = await runWave(['doctor', '--json'], { cwd: project });
    const browser = (JSON.parse(found.stdout) as { browser: { usable: boolean; path: string; usedBy: string[] } }).browser;
    expect(browser).toMatchObject({ usable: true, usedBy: ['pipelines/capture.yaml'] });
    expect(browser.path).toBe(findChromium(undefined, process.env).path);
  });
});
