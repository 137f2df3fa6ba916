import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentManifest, ALL_OR_NOTHING, attemptFile, attemptStream, cliAvailable, expectAllOrNothingRecord, permissionRunner, RUN_ECHO, type AgentRun } from './agents.js';

const available = cliAvailable('codex');

// Codex runs each command in a login shell: a HOME of its own keeps the machine's dotfiles (a pyenv rehash waiting on
// its lock, say) from stalling the commands this test is about.
const shellHome = mkdtempSync(join(tmpdir(), 'wave-codex-home-'));
const codex = { manifest: agentManifest('codex', 'gpt-5.5', `, env: { HOME: "${shellHome}" }`), api: '/v1' };

/** Codex's own completed items of a step's first attempt. */
function items(run: AgentRun, stepId: string): Array<Record<string, any>> {
  return attemptStream(run, stepId, 'item.completed').map((o) => o.item);
}

describe.skipIf(!available)("codex: Wave's persona permissions, as Codex's own switches", () => {
  const runSteps = permissionRunner(codex);

  it('allowed_tools ["*"] writes and runs; deny ["*"] and deny [Bash] take the tools away', async () => {
    const run = await runSteps({ ...ALL_OR_NOTHING, noshell: { permissions: '{ allowed_tools: ["*"], deny: [Bash] }', call: RUN_ECHO } });
    expectAllOrNothingRecord(run);
    expect(items(run, 'writer').some((i) => i.type === 'file_change' && i.status === 'completed')).toBe(true);
    expect(items(run, 'runner').some((i) => i.type === 'command_execution' && i.status === 'completed')).toBe(true);
    for (const step of ['nowriter', 'norunner', 'noshell']) {
      // Codex ran no command and changed no file: the model's call came back refused.
      expect(items(run, step).filter((i) => i.type === 'command_execution' || i.type === 'file_change')).toEqual([]);
      expect(run.record.steps[step]!.filesChanged ?? []).toEqual([]);
    }
    expect(attemptFile(run.project, run.record, 'nowriter', 1, 'stderr')).toContain('read-only sandbox');
    expect(attemptFile(run.project, run.record, 'noshell', 1, 'stderr')).toContain('unsupported call: exec_command');
  });
});
