import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserAction } from '../../core/browser/browser-actions.js';
import { screenshotFile } from '../../core/browser/screenshot-file.js';

/** Wave's per-action time limit when an action sets no `timeout_ms`. */
export const DEFAULT_ACTION_TIMEOUT_MS = 30_000;
/** Wave's cap on the text and HTML an action returns (5 MiB). */
const MAX_RESPONSE_CHARS = 5 * 1024 * 1024;

/** What one action did, as Wave's BrowserResult reports it (with the action's name, and a screenshot's file in place of its bytes). */
export interface BrowserActionResult {
  action: string;
  status: 'success' | 'error';
  data?: Record<string, unknown>;
  error?: string;
  duration_ms: number;
}

/** What an action needs besides the page: the workspace its screenshots go to, and which screenshot this is. */
export interface ActionPlace {
  workspace: string;
  stepId: string;
  /** 1-based count of screenshot actions so far, this one included. */
  screenshot: number;
  /** Why a host the page asked for was refused, when the egress proxy refused it. */
  refusal: (url: string) => string | undefined;
}

/** Runs one action: waits for `wait_for` (after a navigation, before anything else), then acts; never rejects. */
export async function runBrowserAction(page: Page, action: BrowserAction, place: ActionPlace): Promise<BrowserActionResult> {
  const started = Date.now();
  const timeout = action.timeout_ms ?? DEFAULT_ACTION_TIMEOUT_MS;
  const waitFor = async () => void (action.wait_for && (await page.waitForSelector(action.wait_for, { state: 'visible', timeout })));
  try {
    if (action.action !== 'navigate') await waitFor();
    const data = await act(page, action, place, timeout);
    if (action.action === 'navigate') await waitFor();
    return { action: action.action, status: 'success', data, duration_ms: Date.now() - started };
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    // Playwright's timeouts do not say which element they waited for.
    const element = action.selector ?? (action.action === 'navigate' ? undefined : action.wait_for);
    return { action: action.action, status: 'error', error: element ? `${JSON.stringify(element)}: ${why}` : why, duration_ms: Date.now() - started };
  }
}

async function act(page: Page, action: BrowserAction, place: ActionPlace, timeout: number): Promise<Record<string, unknown>> {
  const target = action.selector ? page.locator(action.selector).first() : undefined;
  switch (action.action) {
    case 'navigate':
      return navigate(page, action.url!, place, timeout);
    case 'screenshot': {
      const file = screenshotFile(place.stepId, place.screenshot, action.format);
      const path = join(place.workspace, file);
      await mkdir(dirname(path), { recursive: true });
      await page.screenshot({ path, type: action.format ?? 'png', fullPage: true, timeout });
      return { path: file, format: action.format ?? 'png', bytes: (await stat(path)).size };
    }
    case 'get_text':
      return capped('text', target ? await target.innerText({ timeout }) : String(await page.evaluate('document.body.innerText')));
    case 'get_html':
      return capped('html', target ? await target.evaluate((element: { outerHTML: string }) => element.outerHTML, undefined, { timeout }) : await page.content());
    case 'click':
      await target!.click({ timeout });
      return { selector: action.selector };
    case 'type':
      await target!.pressSequentially(action.value!, { timeout });
      return { selector: action.selector, value: action.value };
  }
}

/** Loads a page: only http(s), so an action list can never read the machine's files; a host the egress proxy refused fails it. */
async function navigate(page: Page, url: string, place: ActionPlace, timeout: number): Promise<Record<string, unknown>> {
  const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`navigate takes an http or https URL, not ${JSON.stringify(url)}`);
  const response = await page.goto(url, { timeout, waitUntil: 'load' }).catch((error: unknown) => {
    throw new Error(place.refusal(url) ?? (error instanceof Error ? error.message : String(error)));
  });
  const refused = place.refusal(url);
  if (refused) throw new Error(refused);
  return { title: await page.title(), url: page.url(), ...(response ? { status: response.status() } : {}) };
}

/** Text or HTML under Wave's size cap, marked when cut. */
function capped(key: 'text' | 'html', value: string): Record<string, unknown> {
  if (value.length <= MAX_RESPONSE_CHARS) return { [key]: value };
  return { [key]: value.slice(0, MAX_RESPONSE_CHARS), truncated: true, warning: `response truncated to ${MAX_RESPONSE_CHARS} characters` };
}
