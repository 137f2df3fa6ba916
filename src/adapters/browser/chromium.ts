import { resolveBinary } from '../../process/binary.js';

/** The variable naming the Chromium (or Chrome) binary a browser step drives, when the manifest's adapter names none. */
export const CHROMIUM_VARIABLE = 'WAVE_CHROMIUM';

/** Names a system Chromium goes by: Debian's package `chromium`, other distributions' `chromium-browser`, Google's builds. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'] as const;

/** What to do when no Chromium is found, in one sentence. */
export const CHROMIUM_INSTALL_HINT = `Install the system's Chromium (the Debian package chromium: apt-get install chromium), or name a Chromium binary in ${CHROMIUM_VARIABLE} or the manifest's adapters.browser.binary.`;

/** Where the browser's binary was looked for and what was found there. */
export interface ChromiumLookup {
  /** The absolute path, when found. */
  path?: string;
  /** What was asked for: the binary named, or the names searched on PATH. */
  wanted: string;
}

/** The Chromium a browser step drives: the adapter's `binary`, else WAVE_CHROMIUM, else the first system Chromium on PATH. */
export function findChromium(binary: string | undefined, env: Record<string, string | undefined>, cwd?: string): ChromiumLookup {
  const named = binary ?? env[CHROMIUM_VARIABLE];
  if (named) return { wanted: named, ...pathOf(resolveBinary(named, env, cwd)) };
  for (const name of CHROMIUM_NAMES) {
    const path = resolveBinary(name, env, cwd);
    if (path) return { wanted: name, path };
  }
  return { wanted: CHROMIUM_NAMES.join(', ') };
}

function pathOf(path: string | undefined): { path?: string } {
  return path ? { path } : {};
}
