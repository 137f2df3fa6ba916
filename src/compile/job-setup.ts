import { agentPackageSpecs } from '../action/agent-package-specs.js';
import { AGENT_PACKAGES } from '../adapters/agent-clis.js';
import type { AttemptStep } from '../plan/plan-types.js';
import { ACTION_PINS } from './action-pins.js';
import { stepAdapters } from '../plan/plan-adapters.js';
import type { WaveInstall } from './wave-install.js';

/** The Node.js major every compiled job runs on: the current LTS. */
export const JOB_NODE_VERSION = 24;

/**
 * Checkout, Node and Wave. With a lockfile, `npm ci` installs the Wave (and the agent CLIs) it pins, cached by npm;
 * without one, npx fetches Wave when the job first runs it, and there is no lockfile to key a cache on.
 */
export function setupSteps(install: WaveInstall): Record<string, unknown>[] {
  const node = { 'node-version': JOB_NODE_VERSION, ...(install.mode === 'lockfile' ? { cache: 'npm' } : { 'package-manager-cache': false }) };
  return [{ uses: ACTION_PINS.checkout.uses }, { uses: ACTION_PINS.setupNode.uses, with: node }, ...(install.mode === 'lockfile' ? [{ name: 'Install Wave', run: 'npm ci' }] : [])];
}

/** Without a lockfile, the agent CLIs a step's adapters run, installed at the versions this Wave is tested with; none with one (it pins them). */
export function agentInstallSteps(step: AttemptStep, install: WaveInstall): Record<string, unknown>[] {
  if (install.mode === 'lockfile') return [];
  const agents = [...new Set(stepAdapters(step).map((adapter) => adapter.type))].filter((type) => type in AGENT_PACKAGES);
  if (agents.length === 0) return [];
  return [{ name: 'Install the agent CLIs', run: `npm install --global --no-fund --no-audit ${agentPackageSpecs(agents).join(' ')}` }];
}
