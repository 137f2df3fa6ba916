import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRequirements, findOnPath, missingRequirementErrors } from '../../src/engine/steps/requirements.js';
import type { PlannedRequires } from '../../src/plan/plan-requires.js';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';

const at = (line: number) => ({ file: 'p.yaml', line, column: 5 });

/** A folder with an executable `mytool` and a file `plain` that is not executable. */
function binFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wave-bin-'));
  writeFileSync(join(dir, 'mytool'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'mytool'), 0o755);
  writeFileSync(join(dir, 'plain'), 'not a program\n');
  mkdirSync(join(dir, 'folder'));
  return dir;
}

describe('checkRequirements: tools on PATH, skills by their check command', () => {
  it('finds a tool only as an executable file along PATH', () => {
    const bin = binFolder();
    expect(findOnPath('mytool', `/nonexistent:${bin}`)).toBe(join(bin, 'mytool'));
    expect(findOnPath('plain', bin)).toBeUndefined();
    expect(findOnPath('folder', bin)).toBeUndefined();
    expect(findOnPath('mytool', undefined)).toBeUndefined();
  });

  it('reports each tool and skill; a failing check says what it printed; a missing optional skill is no error', async () => {
    const bin = binFolder();
    const project = mkdtempSync(join(tmpdir(), 'wave-req-'));
    writeFileSync(join(project, 'installed.marker'), '');
    const requires: PlannedRequires = {
      allowInstall: false,
      tools: [
        { name: 'mytool', location: at(3) },
        { name: 'absent-tool', location: at(4) },
      ],
      skills: [
        { name: 'here', check: 'test -f installed.marker', optional: false, commandsGlob: '', location: at(6) },
        { name: 'gone', check: 'echo "specify: command not found" >&2; exit 127', optional: false, commandsGlob: '', location: at(7) },
        { name: 'nice', check: 'false', optional: true, commandsGlob: '', location: at(8) },
        { name: 'unchecked', optional: false, commandsGlob: '', location: at(9) },
      ],
    };
    const statuses = await checkRequirements(requires, project, { PATH: bin });
    expect(statuses.map((s) => [s.kind, s.name, s.ok, s.detail])).toEqual([
      ['tool', 'mytool', true, join(bin, 'mytool')],
      ['tool', 'absent-tool', false, 'not found on PATH'],
      ['skill', 'here', true, '`test -f installed.marker` succeeded'],
      ['skill', 'gone', false, '`echo "specify: command not found" >&2; exit 127` exited 127: specify: command not found'],
      ['skill', 'nice', false, '`false` exited 1'],
      ['skill', 'unchecked', false, 'it has no `check` command, so it cannot be found installed'],
    ]);
    const errors = missingRequirementErrors(statuses, 'p');
    expect(errors.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      ['requirement_missing', 4, 'pipeline `p` requires tool `absent-tool`, which is missing: not found on PATH'],
      ['requirement_missing', 7, expect.stringContaining('pipeline `p` requires skill `gone`, which is missing')],
      ['requirement_missing', 9, expect.stringContaining('requires skill `unchecked`')],
    ]);
    expect(errors[0]!.hint).toBe('Install `absent-tool`, or add the folder that holds it to PATH; `wave doctor` lists what each pipeline requires.');
    expect(errors[1]!.hint).toBe(`Install the skill \`gone\` so that \`echo "specify: command not found" >&2; exit 127\` succeeds in ${project}, or mark it \`optional: true\`.`);
  });
});

const PIPELINE = (requires: string) => `kind: WavePipeline
metadata: { name: p }
${requires}steps:
  - id: a
    exec: { type: command, source: "touch ran.txt" }
`;

describe('wave run and wave doctor check requires before any step', () => {
  it('wave run stops with requirement_missing at the entry, and no step runs', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE('requires:\n  tools: [sh, wave-test-no-such-tool]\n') });
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipelines/p.yaml:4:');
    expect(result.stderr).toContain('requirement_missing: pipeline `p` requires tool `wave-test-no-such-tool`, which is missing: not found on PATH');
    expect(result.stderr).toContain('hint: Install `wave-test-no-such-tool`');
    expect(existsSync(join(project, '.wave', 'runs'))).toBe(false);
  });

  it('wave run warns about a missing optional skill and runs; a passing check lets it run silently', async () => {
    const requires = 'requires:\n  tools: [sh]\n  skills:\n    extra: { check: "exit 3", optional: true }\n    base: { check: "test -f wave.yaml" }\n';
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE(requires) });
    const result = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: optional skill `extra` is missing (`exit 3` exited 3); the run goes on without it');
    expect(result.stderr).not.toContain('`base`');
  });

  it('wave doctor lists every pipeline’s requirements and exits 1 when one is missing', async () => {
    const project = makeProject({
      'wave.yaml': SHELL_MANIFEST,
      'pipelines/p.yaml': PIPELINE('requires:\n  tools: [sh, wave-test-no-such-tool]\n'),
      'pipelines/q.yaml': PIPELINE('requires:\n  tools: [sh]\n  skills:\n    extra: { check: "exit 3", optional: true }\n'),
    });
    const json = await runWave(['doctor', '--json'], { cwd: project });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { requirements: Array<Record<string, unknown>> };
    expect(report.requirements.map((r) => [r.kind, r.name, r.ok, r.optional, r.pipelines])).toEqual([
      ['tool', 'sh', true, false, ['p', 'q']],
      ['tool', 'wave-test-no-such-tool', false, false, ['p']],
      ['skill', 'extra', false, true, ['q']],
    ]);
    const text = await runWave(['doctor'], { cwd: project });
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toContain('FAIL requires tool wave-test-no-such-tool (p): not found on PATH\n  hint: Install `wave-test-no-such-tool`');
    expect(text.stdout).toContain('warn requires skill extra (q): `exit 3` exited 3');
  });
});
