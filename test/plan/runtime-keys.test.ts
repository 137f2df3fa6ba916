import { describe, expect, it } from 'vitest';
import { SHELL_MANIFEST } from '../support/project.js';
import { pipelineOf, planProject } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

const ONE_STEP = pipelineOf('{ id: a, persona: shell, exec: { source: "true" } }');

/** The plan of the shell manifest with `lines` added under its runtime. */
async function planWithRuntime(lines: string) {
  return (await planProject({ manifest: `${SHELL_MANIFEST}${lines}`, pipeline: ONE_STEP })).plan;
}

describe('runtime keys in the plan', () => {
  it('defaults: a 5 s stdout drain, a 10 MiB stdout limit, no stdout artifact folder', async () => {
    const { runtime } = await planWithRuntime('');
    expect(runtime).toMatchObject({ drainMs: 5000, maxStdoutBytes: 10 * 1024 * 1024 });
    expect(runtime.artifactDir).toBeUndefined();
  });

  it('takes timeouts.stdout_drain_seconds and runtime.artifacts from the manifest', async () => {
    const manifest = SHELL_MANIFEST.replace('timeouts: { process_grace_seconds: 1 }', 'timeouts: { process_grace_seconds: 1, stdout_drain_seconds: 2 }');
    const { plan } = await planProject({ manifest: `${manifest}  artifacts: { max_stdout_size: 4096, default_artifact_dir: .agents/artifacts }\n`, pipeline: ONE_STEP });
    expect(plan.runtime).toMatchObject({ drainMs: 2000, maxStdoutBytes: 4096, artifactDir: '.agents/artifacts' });
  });

  it('gives a persona its temperature, and a retry its adapt_prompt and on_failure', async () => {
    const manifest = SHELL_MANIFEST.replace('  shell: { adapter: shell }', '  shell: { adapter: llm, temperature: 0.4 }').replace(
      'adapters:\n',
      'adapters:\n  llm: { type: llm, base_url: "http://127.0.0.1:1/v1" }\n',
    );
    const pipeline = pipelineOf('{ id: a, persona: shell, exec: { source: "hi" }, retry: { adapt_prompt: false, on_failure: skip } }');
    const [step] = attemptSteps((await planProject({ manifest, pipeline })).plan);
    expect(step!.persona?.temperature).toBe(0.4);
    expect(step!.retry).toMatchObject({ adaptPrompt: false, onFailure: 'skip' });
  });
});
