import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeManifest, cliAvailable, param, startModelServer, type ModelServer } from '../e2e/agents.js';
import { makeProject } from '../support/project.js';
import { runAction, withoutStopCommands } from './run-action.js';

/** Agent steps `ids`, side by side: the scripted model has claude run `echo` in its shell, then answers quoting the output. */
function agentPipeline(ids: string[]): string {
  const steps = ids.map((id) => `  - id: ${id}\n    persona: agent\n    exec: { type: prompt, source: "Run the command." }\n`);
  return `kind: WavePipeline\nmetadata: { name: agent }\nsteps:\n${steps.join('')}`;
}

let server: ModelServer;
beforeAll(async () => void (server = await startModelServer()));
afterAll(async () => server.close());

describe.skipIf(!cliAvailable('claude'))('the GitHub Action’s log group of an agent step', () => {
  it.each([
    ['streamed live', ['work'], 'work'],
    ['printed when the step ends', ['work', 'other'], 'work: completed'],
  ])(
    'shows the conversation as `wave logs` renders it, not the CLI’s stream JSON (%s)',
    async (_mode, ids, title) => {
      const manifest = claudeManifest({ agent: `${server.url}/s/shell/${param('echo group-marker')}` }, '  agent: { adapter: agent }');
      const project = makeProject({ 'wave.yaml': manifest, 'pipelines/agent.yaml': agentPipeline(ids) });
      const run = await runAction(project, { pipeline: 'agent' });
      expect(run.code, run.stdout).toBe(0);
      const log = withoutStopCommands(run.stdout);
      const group = new RegExp(`^::group::${title}\\n([\\s\\S]*?)^::endgroup::$`, 'm').exec(log)?.[1] ?? '';
      expect(group, log).toMatch(/^── attempt 1 · agent \(claude-test\) · started /m);
      expect(group).toMatch(/^ {2}tool {2}Bash echo group-marker$/m);
      expect(group).toMatch(/^ {2}assistant {2}The command ran: group-marker$/m);
      expect(group).toMatch(/^── attempt 1 passed in /m);
      // The CLI's NDJSON (`{"type":"assistant",…}`) stays in the run folder.
      expect(group).not.toContain('{"type":');
      expect(group).not.toContain('--- stdout');
    },
    240_000,
  );
});
