import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { makeProject } from '../support/project.js';

async function problemsOf(adapters: string, personas: string) {
  const dir = makeProject({ 'wave.yaml': `kind: WaveManifest\nmetadata: { name: t }\nadapters:\n${adapters}\npersonas:\n${personas}\n` });
  return (await readManifest(join(dir, 'wave.yaml'), {})).errors.map((e) => ({ code: e.code, message: e.message, line: e.location?.line, hint: e.hint }));
}

describe('permission rules Codex cannot enforce', () => {
  it('refuses an argument pattern on a codex persona by name, at its line', async () => {
    const problems = await problemsOf(
      '  codex: { binary: codex }',
      '  p:\n    adapter: codex\n    permissions:\n      allowed_tools: [Read, "Bash(git *)"]\n      deny: ["Write(secrets/*)"]',
    );
    expect(problems.map((p) => [p.code, p.line])).toEqual([
      ['not_supported', 9],
      ['not_supported', 10],
    ]);
    expect(problems[0]!.message).toBe('persona `p` has the rule `Bash(git *)`, which codex adapter `codex` cannot enforce: Codex switches a tool on or off as a whole');
    expect(problems[0]!.hint).toContain('run the persona on a claude, opencode or gemini adapter');
  });

  it("refuses one in a codex adapter's default_permissions; whole tools and * are fine, as are patterns on other CLIs", async () => {
    const problems = await problemsOf(
      '  cx:\n    type: codex\n    default_permissions: { deny: ["Bash(rm *)"] }\n  claude: {}',
      '  p: { adapter: cx }\n  q: { adapter: claude, permissions: { deny: ["Bash(rm *)"] } }',
    );
    expect(problems.map((p) => [p.code, p.line])).toEqual([['not_supported', 6]]);
    expect(await problemsOf('  codex: {}', '  p: { adapter: codex, permissions: { allowed_tools: ["*"], deny: [Bash, "Write(*)"] } }')).toEqual([]);
  });
});
