import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_PACKAGES } from '../adapters/agent-clis.js';
import { WaveError } from '../core/errors/errors.js';
import { PACKAGE_ROOT } from '../package-root.js';

/** `name@version` of each agent, at the exact version Wave is tested with (its devDependency pin in package.json). */
export function agentPackageSpecs(agents: readonly string[], packageRoot = PACKAGE_ROOT): string[] {
  const pins = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }).devDependencies ?? {};
  return agents.map((agent) => {
    const name = AGENT_PACKAGES[agent];
    if (!name) {
      throw new WaveError('invalid_argument', `input \`install-agents\` names \`${agent}\`, which is not an agent Wave installs`, {
        hint: `Name some of: ${Object.keys(AGENT_PACKAGES).join(', ')}.`,
        location: { file: 'action.yml' },
      });
    }
    const version = pins[name];
    if (!version) throw new WaveError('internal', `package.json pins no version of ${name}`, { hint: 'Add the package to devDependencies with an exact version.' });
    return `${name}@${version}`;
  });
}
