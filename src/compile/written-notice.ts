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
  /** The GitHub Environments the approval gates' jobs wait for, which the repository must create with required reviewers. */
  environments?: readonly string[];
}

/** `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The line that names the Environments to create: one GitHub creates itself when a job names it has no reviewer, so its gate would pass unasked. */
function environmentsLine(environments: readonly string[]): string {
  if (!environments.length) return '';
  const plural = environments.length > 1;
  return `create the GitHub Environment${plural ? 's' : ''} ${listed(environments)} (Settings → Environments) with required reviewers: without ${plural ? 'them' : 'it'} GitHub creates ${plural ? 'each' : 'it'} with none, and the gate passes unasked\n`;
}

/** Two lines, three with approval gates: the file, its jobs and how they get Wave; "commit it", the events it runs on and the secrets to set; the Environments to create. */
export function writtenNotice({ file, jobIds, install, triggers, secrets, environments = [] }: WrittenWorkflow): string {
  const names = jobIds.length > NAMED_JOBS ? [...jobIds.slice(0, NAMED_JOBS), `${jobIds.length - NAMED_JOBS} more`] : jobIds;
  const how =
    install.mode === 'lockfile'
      ? 'each installs Wave with `npm ci` (the lockfile lists wave-pipelines)'
      : `each runs \`${waveCommand(install)}\` (no lockfile here lists wave-pipelines)`;
  const toSet = secrets.length ? `; set the repository secret${secrets.length > 1 ? 's' : ''} ${listed(secrets)}` : '';
  return `wrote ${file}: ${jobIds.length} jobs (${names.join(', ')}); ${how}\ncommit it; it runs on ${listed(triggers)}${toSet}\n${environmentsLine(environments)}`;
}
