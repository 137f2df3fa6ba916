import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/core/errors/exit-codes.js';
import { runWave } from '../support/cli.js';
import { COMMANDS_PIPELINE, projectWithoutManifest } from '../support/no-manifest-project.js';

const AGENT_PIPELINE = `kind: WavePipeline
metadata: { name: agent }
steps:
  - id: prep
    exec: { type: command, source: "echo prepared" }
  - id: review
    dependencies: [prep]
    persona: navigator
    exec: { source: "Review what prep made." }
`;

describe('a pipeline that needs a manifest, with no wave.yaml anywhere', () => {
  it('stops a persona step before anything runs, naming the step, the persona, where it looked and what to do', async () => {
    const dir = projectWithoutManifest({ 'pipelines/agent.yaml': AGENT_PIPELINE });
    const result = await runWave(['run', 'agent'], { cwd: dir });
    expect(result.code).toBe(exitCodeOf('unknown_persona'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${join(dir, 'pipelines', 'agent.yaml')}:8:14: unknown_persona: step \`review\` names persona \`navigator\`, but no wave.yaml was found in ${dir} or any parent folder to declare it\n` +
        '  hint: Run `wave init` to create a wave.yaml and declare the persona there, or pass -m <path/to/wave.yaml>.',
    );
    expect(existsSync(join(dir, '.wave'))).toBe(false);
  });

  it('names an adapter, and a command whose extract or judge has no model to ask, the same way', async () => {
    const dir = projectWithoutManifest({
      'needs.yaml': `kind: WavePipeline
metadata: { name: needs }
steps:
  - id: ask
    adapter: claude
    exec: { source: "Hello." }
  - id: shape
    exec: { type: command, source: "echo '{}'" }
    extract: { schema: { type: object } }
    handover:
      contract: { type: llm_judge, criteria: ["says hello"] }
`,
    });
    const result = await runWave(['run', 'needs.yaml', '--dry-run'], { cwd: dir });
    expect(result.code).toBe(2);
    const missing = `no wave.yaml was found in ${dir} or any parent folder`;
    const file = join(dir, 'needs.yaml');
    expect(result.stderr.split('\n').filter((line) => !line.startsWith('  hint:'))).toEqual([
      `${file}:5:14: unknown_adapter: step \`ask\` names adapter \`claude\`, but ${missing} to declare it`,
      `${file}:9:14: missing_field: step \`shape\` extract needs a model to ask, and a command step has none: it names no adapter, and ${missing} to give a default`,
      `${file}:11:17: missing_field: step \`shape\` contract 1 (llm_judge) needs a model to ask, and a command step has none: it names no adapter, and ${missing} to give a default`,
    ]);
  });
});

describe('wave validate with no wave.yaml anywhere', () => {
  it('checks a commands-only pipeline against the built-in manifest', async () => {
    const dir = projectWithoutManifest({ 'pipelines/commands.yaml': COMMANDS_PIPELINE });
    const named = await runWave(['validate', 'commands'], { cwd: dir });
    expect(named.stderr).toBe('');
    expect(named.code).toBe(0);
    expect(named.stdout).toBe('✓ pipelines/commands.yaml\n1 file valid');
  });

  it("checks every pipeline of the folder, reporting a persona step's missing manifest at its line", async () => {
    const dir = projectWithoutManifest({ 'pipelines/commands.yaml': COMMANDS_PIPELINE, 'pipelines/agent.yaml': AGENT_PIPELINE });
    const all = await runWave(['validate'], { cwd: dir });
    expect(all.code).toBe(2);
    expect(all.stdout.split('\n')).toEqual([
      '✗ pipelines/agent.yaml',
      `pipelines/agent.yaml:8:14: unknown_persona: step \`review\` names persona \`navigator\`, but no wave.yaml was found in ${dir} or any parent folder to declare it`,
      '  hint: Run `wave init` to create a wave.yaml and declare the persona there, or pass -m <path/to/wave.yaml>.',
      '✓ pipelines/commands.yaml',
      '1 problem in 1 of 2 files',
    ]);
  });
});
