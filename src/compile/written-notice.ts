import type { Trigger } from './triggers.js';
import { waveCommand, type WaveInstall } from './wave-install.js';

// Past this many jobs the notice names the first ones and counts the rest.
const NAMED_JOBS = 8;

/** What `wave compile -o` wrote and what to do next, for stderr. */
export interface WrittenWorkflow {
  /** The file, as the user should read it (relative to the working folder when inside it). */
  file: string;
  jobIds: readonly string[];
  install: WaveInstall;
  triggers: readonly Trigger[];
  /** The secrets the jobs read, which the repository must define. */
  secrets: readonly string[];
}

/** `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Two lines: the file, its jobs and how they get Wave; then "commit it", the events it runs on and the secrets to set. */
export function writtenNotice({ file, jobIds, install, triggers, secrets }: WrittenWorkflow): string {
  const names = jobIds.length > NAMED_JOBS ? [...jobIds.slice(0, NAMED_JOBS), `${jobIds.length - NAMED_JOBS} more`] : jobIds;
  const how =
    install.mode === 'lockfile'
      ? 'each installs Wave with `npm ci` (the lockfile lists wave-pipelines)'
      : `each runs \`${waveCommand(install)}\` (no lockfile here lists wave-pipelines)`;
  const toSet = secrets.length ? `; set the repository secret${secrets.length > 1 ? 's' : ''} ${listed(secrets)}` : '';
  return `wrote ${file}: ${jobIds.length} jobs (${names.join(', ')}); ${how}\ncommit it; it runs on ${listed(triggers)}${toSet}\n`;
}
