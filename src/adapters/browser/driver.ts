// Loaded only by a browser step: the bundle keeps playwright-core outside (a require at this point), read from node_modules.
/** playwright-core's Chromium launcher. */
export { chromium } from 'playwright-core';
