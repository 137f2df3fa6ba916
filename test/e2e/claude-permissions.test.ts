import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, artifactText, attemptStream, changedFiles, claudeManifest, cliAvailable, expectScopedRecord, permissionRunner, SCOPED, type AgentRun } from './agents.js';

const available = cliAvailable('claude');

const claude = { manifest: claudeManifest };

/** The text of each tool result Claude sent back to the model in a step. */
function toolResults(run: AgentRun, stepId: string): string[] {
  return attemptStream(run, stepId, 'user')
    .flatMap((o) => (o.message?.content ?? []) as Array<Record<string, any>>)
    .filter((part) => part.type === 'tool_result')
    .map((part) => (typeof part.content === 'string' ? part.content : JSON.stringify(part.content)));
}

describe.skipIf(!available)("claude: Wave's persona permissions, enforced by Claude Code itself", () => {
  const runSteps = permissionRunner(claude);

  it('allowed_tools ["*"] (as every persona of Wave\'s own wave.yaml): Claude writes a file and runs a command', async () => {
    const run = await runSteps({
      writer: { permissions: ALLOW_ALL, call: { write: 'notes.txt', content: 'written under allowed_tools *\n' }, keep: 'notes.txt' },
      runner: { permissions: ALLOW_ALL, call: { shell: 'echo ran > ran.txt && cat ran.txt' }, keep: 'ran.txt' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(artifactText(run, 'writer')).toBe('written under allowed_tools *\n');
    expect(artifactText(run, 'runner')).toBe('ran\n');
    for (const step of ['writer', 'runner']) {
      const result = attemptStream(run, step).find((o) => o.type === 'result');
      expect(result?.permission_denials).toEqual([]);
    }
  });

  it('deny ["*"]: Claude has no tool to call, so nothing is written or run', async () => {
    const run = await runSteps({
      writer: { permissions: '{ allowed_tools: ["*"], deny: ["*"] }', call: { write: 'notes.txt' } },
      runner: { permissions: '{ deny: ["*"] }', call: { shell: 'touch ran.txt' } },
    });
    expect(run.code, run.stderr).toBe(0);
    for (const step of ['writer', 'runner']) {
      const init = attemptStream(run, step).find((o) => o.type === 'system' && o.subtype === 'init');
      expect(init?.tools).toEqual([]);
      expect(toolResults(run, step).join('\n')).toContain('No such tool available');
    }
    expect(changedFiles(run, 'writer')).toEqual([]);
    expect(changedFiles(run, 'runner')).toEqual([]);
  });

  it('Write(.agents/output/*) lets Claude write there and nowhere else; Bash(echo *) runs echo and refuses touch', async () => {
    const run = await runSteps(SCOPED);
    expectScopedRecord(run);
    const denied = (step: string) => attemptStream(run, step).find((o) => o.type === 'result')?.permission_denials ?? [];
    expect(denied('outside')).toEqual([expect.objectContaining({ tool_name: 'Write' })]);
    expect(denied('inside')).toEqual([]);
    expect(toolResults(run, 'echo').join('\n')).toContain('hello');
    expect(denied('echo')).toEqual([]);
    expect(denied('touch')).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: expect.objectContaining({ command: 'touch made.txt' }) })]);
    // Only the named tools are offered, as Wave's agent frontmatter `tools:` does.
    const init = attemptStream(run, 'inside').find((o) => o.type === 'system' && o.subtype === 'init');
    expect([...(init?.tools as string[])].sort()).toEqual(['Bash', 'Read', 'Write']);
  });
});
