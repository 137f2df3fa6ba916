import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_SKILLS_FOLDERS } from '../../src/adapters/agent-clis.js';
import { installStepSkills, installSkills, SKILL_MARKER_FILE } from '../../src/adapters/skills.js';
import type { ResolvedSkill } from '../../src/core/resolved-skill.js';
import { loadManifest } from '../../src/config/load/load.js';
import { WaveErrors } from '../../src/core/errors/errors.js';

const scratch = mkdtempSync(join(tmpdir(), 'wave-skills-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
/** A fresh folder with the given files (path → text). */
function folder(files: Record<string, string>): string {
  const dir = join(scratch, `d${counter++}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const read = (path: string) => readFileSync(path, 'utf8');
/** The skills `names`, each in its folder under `source`. */
const skillsIn = (source: string, names: string[]): ResolvedSkill[] => names.map((name) => ({ name, folder: join(source, name) }));

describe("installSkills: copies skill folders with a marker, never touching folders that are not Wave's", () => {
  it('copies each listed skill, nested files included, and marks it', async () => {
    const source = folder({ 'review/SKILL.md': 'review skill\n', 'review/scripts/check.sh': 'echo ok\n', 'unlisted/SKILL.md': 'no\n' });
    const target = join(folder({}), '.claude', 'skills');
    const report = await installSkills(skillsIn(source, ['review']), target);
    expect(report).toEqual({ installed: ['review'], skippedForeign: [], removed: [] });
    expect(read(join(target, 'review', 'SKILL.md'))).toBe('review skill\n');
    expect(read(join(target, 'review', 'scripts', 'check.sh'))).toBe('echo ok\n');
    expect(existsSync(join(target, 'review', SKILL_MARKER_FILE))).toBe(true);
    expect(existsSync(join(target, 'unlisted'))).toBe(false);
  });

  it('on re-preparation replaces a Wave-marked folder whole: changed files updated, stale files gone', async () => {
    const source = folder({ 'review/SKILL.md': 'version 1\n', 'review/old.md': 'old\n' });
    const target = folder({});
    await installSkills(skillsIn(source, ['review']), target);
    writeFileSync(join(source, 'review', 'SKILL.md'), 'version 2\n');
    rmSync(join(source, 'review', 'old.md'));
    const report = await installSkills(skillsIn(source, ['review']), target);
    expect(report.installed).toEqual(['review']);
    expect(read(join(target, 'review', 'SKILL.md'))).toBe('version 2\n');
    expect(existsSync(join(target, 'review', 'old.md'))).toBe(false);
    expect(existsSync(join(target, 'review', SKILL_MARKER_FILE))).toBe(true);
  });

  it('leaves a folder of the same name without the marker exactly as it is', async () => {
    const source = folder({ 'review/SKILL.md': 'from the manifest\n' });
    const target = folder({ 'review/SKILL.md': "the user's own skill\n", 'review/notes.txt': 'keep me\n', 'mine/SKILL.md': 'also mine\n' });
    const report = await installSkills(skillsIn(source, ['review']), target);
    expect(report).toEqual({ installed: [], skippedForeign: ['review'], removed: [] });
    expect(read(join(target, 'review', 'SKILL.md'))).toBe("the user's own skill\n");
    expect(read(join(target, 'review', 'notes.txt'))).toBe('keep me\n');
    expect(existsSync(join(target, 'review', SKILL_MARKER_FILE))).toBe(false);
    expect(read(join(target, 'mine', 'SKILL.md'))).toBe('also mine\n');
  });

  it('removes Wave-marked folders of skills no longer listed, and only those', async () => {
    const source = folder({ 'a/SKILL.md': 'a\n', 'b/SKILL.md': 'b\n' });
    const target = folder({ 'foreign/SKILL.md': "not Wave's\n" });
    await installSkills(skillsIn(source, ['a', 'b']), target);
    const report = await installSkills(skillsIn(source, ['b']), target);
    expect(report).toEqual({ installed: ['b'], skippedForeign: [], removed: ['a'] });
    expect(existsSync(join(target, 'a'))).toBe(false);
    expect(read(join(target, 'foreign', 'SKILL.md'))).toBe("not Wave's\n");
  });

  it('fails with file_not_found when a listed skill has no source folder', async () => {
    const source = folder({});
    await expect(installSkills(skillsIn(source, ['ghost']), folder({}))).rejects.toMatchObject({ code: 'file_not_found' });
  });

  it("installStepSkills puts the skills in each CLI's own folder, and with none removes only Wave's", async () => {
    const source = folder({ 'review/SKILL.md': 'review\n' });
    const skills = skillsIn(source, ['review']);
    for (const type of ['claude', 'opencode', 'codex', 'gemini'] as const) {
      const workspace = folder({});
      await installStepSkills(CLI_SKILLS_FOLDERS[type], skills, workspace);
      expect(read(join(workspace, CLI_SKILLS_FOLDERS[type]!, 'review', 'SKILL.md'))).toBe('review\n');
    }
    expect(CLI_SKILLS_FOLDERS).toMatchObject({ claude: '.claude/skills', opencode: '.opencode/skills', codex: '.agents/skills', gemini: '.gemini/skills' });
    const empty = folder({});
    expect(await installStepSkills(CLI_SKILLS_FOLDERS.claude, [], empty)).toEqual({ installed: [], skippedForeign: [], removed: [] });
    expect(existsSync(join(empty, '.claude'))).toBe(false);
    const earlier = folder({ '.claude/skills/mine/SKILL.md': 'mine\n' });
    await installStepSkills(CLI_SKILLS_FOLDERS.claude, skills, earlier);
    expect(await installStepSkills(CLI_SKILLS_FOLDERS.claude, undefined, earlier)).toEqual({ installed: [], skippedForeign: [], removed: ['review'] });
    expect(read(join(earlier, '.claude', 'skills', 'mine', 'SKILL.md'))).toBe('mine\n');
    expect(await installStepSkills(CLI_SKILLS_FOLDERS.process, skills, folder({}))).toBeUndefined();
  });

  it('copies skills from different source folders in one installation', async () => {
    const a = folder({ 'one/SKILL.md': 'one\n' });
    const b = folder({ 'two/SKILL.md': 'two\n' });
    const target = folder({});
    await installSkills([...skillsIn(a, ['one']), ...skillsIn(b, ['two'])], target);
    expect([read(join(target, 'one', 'SKILL.md')), read(join(target, 'two', 'SKILL.md'))]).toEqual(['one\n', 'two\n']);
  });
});

describe('the manifest loader checks the skills a persona lists', () => {
  const manifest = (skills: string) => `kind: WaveManifest
metadata: { name: s }
adapters:
  c: { type: claude, binary: claude }
personas:
  p: { adapter: c, skills: ${skills} }
`;

  it('accepts a skill with a folder under skills/ beside wave.yaml', async () => {
    const dir = folder({ 'wave.yaml': manifest('[review]'), 'skills/review/SKILL.md': 'x\n' });
    const loaded = await loadManifest(join(dir, 'wave.yaml'), {});
    expect(loaded.value.personas?.p?.skills).toEqual(['review']);
  });

  it('reports a missing skill folder and a name that is not a plain folder name, each at its line', async () => {
    const dir = folder({ 'wave.yaml': manifest('[ghost, ../escape]') });
    const error = await loadManifest(join(dir, 'wave.yaml'), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WaveErrors);
    const problems = (error as WaveErrors).errors.map((e) => [e.code, e.location?.line]);
    expect(problems).toEqual([
      ['file_not_found', 6],
      ['wrong_type', 6],
    ]);
    expect((error as WaveErrors).errors[0]!.message).toContain(join(dir, 'skills', 'ghost'));
  });
});
