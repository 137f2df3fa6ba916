import { join } from 'node:path';

/** Where a browser step's screenshots go in its workspace: Wave's webui-capturer keeps them in `.agents/output/screenshots/`. */
export const SCREENSHOT_DIR = join('.agents', 'output', 'screenshots');

/** The workspace-relative file of a step's `n`th screenshot (1-based), named so the plan knows it before the browser runs. */
export function screenshotFile(stepId: string, n: number, format: 'png' | 'jpeg' = 'png'): string {
  return join(SCREENSHOT_DIR, `${stepId}-${n}.${format === 'jpeg' ? 'jpg' : 'png'}`);
}
