import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentPackageSpecs } from '../../src/action/agent-package-specs.js';
import { WaveError } from '../../src/core/errors/errors.js';
import { ROOT } from '../support/cli.js';

describe('install-agents', () => {
  it('installs each agent CLI at the exact version package.json pins for the tests', () => {
    const pins = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    expect(agentPackageSpecs(['claude', 'codex'], ROOT)).toEqual([`@anthropic-ai/claude-code@${pins['@anthropic-ai/claude-code']}`, `@openai/codex@${pins['@openai/codex']}`]);
  });

  it('refuses an agent it does not know, naming the ones it does', () => {
    expect(() => agentPackageSpecs(['claud'], ROOT)).toThrow(WaveError);
    expect(() => agentPackageSpecs(['claud'], ROOT)).toThrow(/`claud`/);
  });
});
