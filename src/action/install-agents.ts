import * as core from '@actions/core';
import { execa } from 'execa';
import { WaveError } from '../core/errors/errors.js';
import { agentPackageSpecs } from './agent-package-specs.js';

/** Installs the agent CLIs globally with npm, in a log group; `signal` stops npm (the caller then reports the cancel). */
export async function installAgents(agents: readonly string[], signal?: AbortSignal): Promise<void> {
  if (agents.length === 0) return;
  const specs = agentPackageSpecs(agents);
  await core.group(`Installing ${specs.join(', ')}`, async () => {
    const result = await execa('npm', ['install', '--global', '--no-fund', '--no-audit', ...specs], { reject: false, all: true, cancelSignal: signal });
    core.info(String(result.all ?? ''));
    if (result.isCanceled) return;
    if (result.exitCode !== 0) {
      throw new WaveError('spawn_failed', `npm could not install ${specs.join(', ')} (exit ${result.exitCode})`, {
        hint: 'Check the npm output above; the runner needs access to the npm registry.',
      });
    }
  });
}
