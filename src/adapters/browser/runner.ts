import { QUIET_CHROMIUM } from './chromium-switches.js';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Browser } from 'playwright-core';
import { Redactor } from '../../redact.js';
import { parseBrowserActions, type BrowserAction } from '../../core/browser/browser-actions.js';
import type { Failure } from '../../core/errors/failure.js';
import { NO_TOKENS } from '../../core/models/tokens.js';
import { abortFailure } from '../../process/spawn-failure.js';
import { startLoopbackProxy, type LoopbackProxy } from '../../sandbox/egress/loopback-proxy.js';
import { attemptOutputFiles } from '../attempt-output.js';
import type { AdapterResult, AdapterRunConfig, AdapterRunner, StreamEvent } from '../types.js';
import { CHROMIUM_INSTALL_HINT, findChromium } from './chromium.js';
import { EgressRefusals } from './egress-refusals.js';
import { runBrowserAction, type BrowserActionResult } from './run-action.js';

const TAIL_CHARS = 2_000;
const DRIVER_HINT = "Install Wave with its dependencies (npm install), which brings playwright-core, Wave's browser driver.";
const ALLOWLIST_KEYS = "runtime.sandbox.default_allowed_domains in the manifest, or the persona's sandbox.allowed_domains";

export interface BrowserRunnerOptions {
  /** Hides the run's secrets in the files it writes and in messages. */
  redactor?: Redactor;
}

/**
 * Wave's built-in `browser` adapter: the step's JSON action list run in order in a headless system Chromium driven
 * through playwright-core, stopping at the first failed action. Each action is a tool event `browser.<action>`;
 * screenshots are files in the workspace; the results (Wave's BrowserResult list) are the attempt's stdout.
 */
export class BrowserRunner implements AdapterRunner {
  readonly type = 'browser' as const;
  private readonly redactor: Redactor;

  constructor(options: BrowserRunnerOptions = {}) {
    this.redactor = options.redactor ?? new Redactor([]);
  }

  /** Runs the action list; resolves with its results and never rejects. */
  async run(config: AdapterRunConfig, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<AdapterResult> {
    const started = Date.now();
    const finish = (results: BrowserActionResult[], failure?: Failure) => this.finish({ config, started, results, onEvent }, failure);
    const parsed = parseBrowserActions(config.prompt);
    if ('problems' in parsed) {
      return finish([], { class: 'browser_action_failed', message: parsed.problems.map((p) => p.message).join('; '), hint: "Fix the action list in the step's exec.source." });
    }
    const chromium = findChromium(config.adapter.binary, { ...process.env, ...config.env });
    if (!chromium.path) return finish([], { class: 'spawn_failed', message: `no Chromium was found (looked for ${chromium.wanted})`, hint: CHROMIUM_INSTALL_HINT });
    const refusals = new EgressRefusals(ALLOWLIST_KEYS);
    let proxy: LoopbackProxy | undefined;
    let browser: Browser | undefined;
    const stop = () => void browser?.close().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      const egress = config.browser?.egress;
      if (egress) {
        proxy = await startLoopbackProxy({ ...egress, allowlistHint: ALLOWLIST_KEYS, onDecision: (decision) => (refusals.note(decision), egress.onDecision(decision)) });
      }
      const driver = await import('./driver.js').then((module) => module.chromium).catch(() => undefined);
      if (!driver) return await finish([], { class: 'spawn_failed', message: 'the browser driver playwright-core is not installed beside Wave', hint: DRIVER_HINT });
      browser = await driver.launch({
        executablePath: chromium.path,
        headless: true,
        args: QUIET_CHROMIUM,
        env: config.env,
        ...(proxy ? { proxy: { server: proxy.url } } : {}),
      });
      if (signal.aborted) return await finish([], abortFailure(signal.reason));
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
      const results = await this.runActions(parsed.actions, { page, config, refusals, signal, onEvent });
      if (signal.aborted) return await finish(results, abortFailure(signal.reason));
      const failed = results.find((r) => r.status === 'error');
      return await finish(results, failed && { class: 'browser_action_failed', message: `browser action ${results.length} (${failed.action}) failed: ${failed.error}` });
    } catch (error) {
      if (signal.aborted) return await finish([], abortFailure(signal.reason));
      const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      return await finish([], { class: 'spawn_failed', message: `Chromium at ${chromium.path} could not be started: ${why}`, hint: CHROMIUM_INSTALL_HINT });
    } finally {
      signal.removeEventListener('abort', stop);
      await browser?.close().catch(() => undefined);
      await proxy?.close();
    }
  }

  /** The actions in order, each reported as a tool call and its result, up to the first that fails. */
  private async runActions(actions: readonly BrowserAction[], run: ActionRun): Promise<BrowserActionResult[]> {
    const results: BrowserActionResult[] = [];
    let screenshot = 0;
    for (const [index, action] of actions.entries()) {
      if (run.signal.aborted) break;
      const id = `browser-${index + 1}`;
      run.onEvent({ kind: 'tool_use', id, name: `browser.${action.action}`, ...targetOf(action) });
      if (action.action === 'screenshot') screenshot++;
      const place = { workspace: run.config.workspace, stepId: run.config.stepId, screenshot, refusal: (url: string) => run.refusals.of(url) };
      const result = await runBrowserAction(run.page, action, place);
      results.push(result);
      run.onEvent({ kind: 'tool_result', id, isError: result.status === 'error', content: this.redactor.redact(summaryOf(result)) });
      if (result.status === 'error') break;
    }
    return results;
  }

  /** Writes the results as the attempt's stdout (and into the step's unwritten file artifacts on success), reports the result event. */
  private async finish(attempt: FinishedAttempt, failure?: Failure): Promise<AdapterResult> {
    const { config, results } = attempt;
    const text = this.redactor.redact(JSON.stringify(results, null, 2));
    await mkdir(config.attemptDir, { recursive: true });
    const files = attemptOutputFiles(config);
    await writeFile(files.stdoutPath, text);
    await writeFile(files.stderrPath, failure ? this.redactor.redact(failure.message) : '');
    if (!failure) await fillResultFiles(config.browser?.resultFiles ?? [], text);
    if (failure) failure = { ...failure, message: this.redactor.redact(failure.message) };
    attempt.onEvent({ kind: 'result', ok: !failure, text, tokens: { ...NO_TOKENS } });
    return {
      ok: !failure,
      exitCode: failure ? null : 0,
      signal: null,
      text,
      tokens: { ...NO_TOKENS },
      ...(failure ? { failure } : {}),
      skippedLines: 0,
      outputTail: text.slice(-TAIL_CHARS),
      durationMs: Date.now() - attempt.started,
    };
  }
}

interface ActionRun {
  page: import('playwright-core').Page;
  config: AdapterRunConfig;
  refusals: EgressRefusals;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
}

interface FinishedAttempt {
  config: AdapterRunConfig;
  started: number;
  results: BrowserActionResult[];
  onEvent: (event: StreamEvent) => void;
}

/** What a tool call names: the page it loads, or the element it reads or acts on. */
function targetOf(action: BrowserAction): { target?: string } {
  const target = action.url ?? action.selector;
  return target ? { target } : {};
}

/** One line for a tool result: what the action found, or why it failed. */
function summaryOf(result: BrowserActionResult): string {
  if (result.status === 'error') return `error: ${result.error}`;
  const data = result.data ?? {};
  if (typeof data.title === 'string') return `loaded ${String(data.url)} (${data.title}${typeof data.status === 'number' ? `, HTTP ${data.status}` : ''})`;
  if (typeof data.path === 'string') return `saved ${data.path} (${String(data.bytes)} bytes)`;
  if (typeof data.text === 'string') return data.text.slice(0, 500);
  if (typeof data.html === 'string') return `${data.html.length} characters of HTML`;
  return 'done';
}

/** Wave's fallback: a file artifact the step did not write gets the results. */
async function fillResultFiles(paths: readonly string[], text: string): Promise<void> {
  for (const path of paths) {
    if (existsSync(path)) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}
