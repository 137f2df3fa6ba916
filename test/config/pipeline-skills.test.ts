import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestView, readManifest, readPipeline } from '../../src/config/load/load.js';
import { makeProject } from '../support/project.js';
import { planProject } from '../plan/plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: s }
project: { skill: golang, empty: "" }
adapters:
  c: { type: claude, binary: claude }
personas:
  dev: { adapter: c, skills: [review] }
  bare: { adapter: c }
`;

/** SKILL.md files for the named skills, under `folder` (skills or .agents/skills). */
function skillFiles(folder: string, ...names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [`${folder}/${name}/SKILL.md`, `---\nname: ${name}\ndescription: ${name}\n---\n${folder}\n`]));
}

/** The problems `wave validate` reports for pipeline p (and its manifest) as [code, line, column, message]. */
async function problemsOf(pipeline: string, files: Record<string, string> = {}, manifest = MANIFEST) {
  const dir = makeProject({ 'wave.yaml': manifest, 'pipelines/p.yaml': pipeline, ...files });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  const pipe = await readPipeline(join(dir, 'pipelines/p.yaml'), manifestView(read), {});
  return { dir, errors: [...read.errors, ...pipe.errors] };
}

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
skills:
  - "{{ project.skill }}"
  - gh-cli
steps:
  - id: work
    persona: dev
    skills: [local]
    exec: { source: "Do it." }
  - id: shell
    exec: { type: command, source: "true" }
`;

describe('pipeline and step skills: found beside wave.yaml, reported with their line when missing', () => {
  it('accepts skills under skills/ and under .agents/skills/ (Wave’s two sources), with {{ project.skill }} filled', async () => {
    const { errors } = await problemsOf(PIPELINE, { ...skillFiles('skills', 'review', 'golang'), ...skillFiles('.agents/skills', 'gh-cli', 'local') });
    expect(errors).toEqual([]);
  });

  it('reports each missing skill at its entry, naming both places looked at and where to put it', async () => {
    const { dir, errors } = await problemsOf(PIPELINE, skillFiles('skills', 'review'));
    expect(errors.map((e) => [e.code, e.location?.line, e.location?.column])).toEqual([
      ['file_not_found', 4, 5],
      ['file_not_found', 5, 5],
      ['file_not_found', 9, 14],
    ]);
    expect(errors[0]!.message).toBe(
      `the pipeline lists skill \`golang\`, which is not there (looked for ${join(dir, 'skills', 'golang', 'SKILL.md')} and ${join(dir, '.agents', 'skills', 'golang', 'SKILL.md')})`,
    );
    expect(errors[2]!.message).toContain('step `work` lists skill `local`');
    expect(errors[2]!.hint).toBe('Put the skill in skills/local/ or .agents/skills/local/ beside wave.yaml, with its SKILL.md.');
  });

  it('needs the SKILL.md: a folder without one is no skill', async () => {
    const { errors } = await problemsOf(PIPELINE, { ...skillFiles('skills', 'review', 'golang', 'gh-cli'), '.agents/skills/local/notes.md': 'x\n' });
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('skill `local`, which is not there')]);
  });

  it('drops a skill whose {{ project.<key> }} is unset or empty, as Wave strips unresolved project placeholders', async () => {
    const pipeline = PIPELINE.replace('"{{ project.skill }}"', '"{{ project.nothing }}"\n  - "{{ project.empty }}"');
    const { errors } = await problemsOf(pipeline, { ...skillFiles('skills', 'review'), ...skillFiles('.agents/skills', 'gh-cli', 'local') });
    expect(errors).toEqual([]);
  });

  it('refuses any other template variable in a skill name, and a name that is not a plain folder name', async () => {
    const pipeline = PIPELINE.replace('"{{ project.skill }}"', '"{{ input }}"').replace('gh-cli', '../up');
    const { errors } = await problemsOf(pipeline, { ...skillFiles('skills', 'review'), ...skillFiles('.agents/skills', 'local') });
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([
      ['template_invalid', 4],
      ['wrong_type', 5],
    ]);
    expect(errors[0]!.message).toBe('the pipeline lists skill `{{ input }}`, which is not known before the run starts');
    expect(errors[0]!.hint).toContain('{{ project.<key> }}');
  });

  it('refuses step skills on a command step, where no agent would receive them', async () => {
    const pipeline = PIPELINE.replace('    exec: { type: command, source: "true" }', '    skills: [local]\n    exec: { type: command, source: "true" }');
    const { errors } = await problemsOf(pipeline, { ...skillFiles('skills', 'review', 'golang'), ...skillFiles('.agents/skills', 'gh-cli', 'local') });
    expect(errors.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      ['conflicting_fields', 12, 'step `shell` sets `skills`, but it is a command step: no agent runs to receive it'],
    ]);
  });

  it("checks the manifest's global skills too", async () => {
    const manifest = MANIFEST.replace('adapters:', 'skills: [house-style]\nadapters:');
    const { errors } = await problemsOf(PIPELINE, { ...skillFiles('skills', 'review', 'golang'), ...skillFiles('.agents/skills', 'gh-cli', 'local') }, manifest);
    expect(errors.map((e) => [e.code, e.location?.line, e.message.split(',')[0]])).toEqual([['file_not_found', 4, 'the manifest lists skill `house-style`']]);
  });
});

describe("a step's skills: the manifest's, the persona's, the pipeline's and its own, merged as Wave's ResolveSkills does", () => {
  const files = { ...skillFiles('skills', 'review', 'golang', 'house-style', 'gh-cli'), ...skillFiles('.agents/skills', 'gh-cli', 'local') };

  it('once each, sorted, each from the first source that holds it (skills/ before .agents/skills/); none for a command step', async () => {
    const manifest = MANIFEST.replace('adapters:', 'skills: [house-style, review]\nadapters:');
    const { plan, dir } = await planProject({ manifest, pipeline: PIPELINE, files });
    const [work, shell] = attemptSteps(plan);
    expect(work!.skills).toEqual([
      { name: 'gh-cli', folder: join(dir, 'skills', 'gh-cli') },
      { name: 'golang', folder: join(dir, 'skills', 'golang') },
      { name: 'house-style', folder: join(dir, 'skills', 'house-style') },
      { name: 'local', folder: join(dir, '.agents', 'skills', 'local') },
      { name: 'review', folder: join(dir, 'skills', 'review') },
    ]);
    expect(shell!.skills).toEqual([]);
  });

  it('a step without persona skills gets the pipeline’s and its own', async () => {
    const pipeline = PIPELINE.replace('persona: dev', 'persona: bare');
    const { plan } = await planProject({ manifest: MANIFEST, pipeline, files });
    expect(attemptSteps(plan)[0]!.skills.map((s) => s.name)).toEqual(['gh-cli', 'golang', 'local']);
  });
});
