import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { ESCAPES, FORGED_ROUND, RAW_CONTROL } from '../support/attacks.mjs';
import { runWave, WAVE_BIN } from '../support/cli.js';
import { requirementMet } from '../support/requirement.js';
import { commandPipeline, makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

/** What step `scan` prints on stdout and stderr: a forged round, then every terminal escape. */
const PRINTED = `${FORGED_ROUND}\n${ESCAPES.join('')}\n`;
/** The escapes as a text view shows them. */
const VISIBLE = '\\x1b[2J\\x1b[H\\x1b]0;PWNED-TITLE\\x07\\x1b[31m\\rOVERWRITE\\x9b2J\\u2028';
/** The name of the file `scan` creates. */
const FILE_NAME = 'evil\n[#2 fake-scan] \x1b[2J';

describe('the text views of a step that prints terminal escapes and names a file with them', () => {
  let project: string;
  let run: { code: number; stdout: string; stderr: string };
  let id: string;
  beforeAll(async () => {
    const payload = join(mkdtempSync(join(tmpdir(), 'wave-payload-')), 'payload.txt');
    writeFileSync(payload, PRINTED);
    project = makeProject({
      'pipelines/p.yaml': commandPipeline('p', [
        ['scan', [], `cat ${payload}; cat ${payload} >&2; touch "$(printf 'evil\\n[#2 fake-scan] \\033[2J')"; cat ${payload} > escapes.txt; exit 3`],
      ]),
    });
    run = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    id = latestRun(project).id;
  });

  it('--output text shows them escaped, the file name on one line', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toMatch(/^\d\d:\d\d:\d\d scan file A evil\\n\[#2 fake-scan\] \\x1b\[2J {2}\+0 -0$/m);
    // The failure carries the stderr tail (trimmed, the line separator with it): escaped too, every line of it indented under the failure.
    expect(run.stdout).toContain(`\n    ${VISIBLE.replace('\\u2028', '')}\n`);
    expect(run.stdout).toContain('\n    [#2 fake-scan] 2026-01-01T00:00:00.000Z\n');
    expect(run.stdout).not.toMatch(/^\[#2 fake-scan\]/m);
  });

  it('wave status shows them escaped; --json keeps them exact', async () => {
    const status = await runWave(['status', id], { cwd: project });
    expect(status.stdout).not.toMatch(RAW_CONTROL);
    expect(status.stdout).toContain('      A evil\\n[#2 fake-scan] \\x1b[2J  +0 -0\n');
    const record = JSON.parse((await runWave(['status', id, '--json'], { cwd: project })).stdout) as RunRecord;
    expect(record.steps.scan!.filesChanged).toContainEqual(expect.objectContaining({ path: FILE_NAME, change: 'added' }));
  });

  it('wave logs shows stdout and stderr escaped; --raw prints them as stored', async () => {
    const logs = await runWave(['logs', id, '--step', 'scan'], { cwd: project });
    expect(logs.stdout).not.toMatch(RAW_CONTROL);
    // Both streams, stderr marked: the step printed the same to each.
    expect(logs.stdout).toBe(`${FORGED_ROUND}\n${VISIBLE}\n\n==> scan (attempt 1, stderr) <==\n${FORGED_ROUND}\n${VISIBLE}`);
    expect((await runWave(['logs', id, '--step', 'scan', '--stdout'], { cwd: project })).stdout).toBe(`${FORGED_ROUND}\n${VISIBLE}`);
    const stderr = await runWave(['logs', id, '--step', 'scan', '--stderr'], { cwd: project });
    expect(stderr.stdout).toBe(`${FORGED_ROUND}\n${VISIBLE}`);
    const raw = await runWave(['logs', id, '--step', 'scan', '--raw'], { cwd: project });
    expect(`${raw.stdout}\n`).toBe(PRINTED);
    expect(`${raw.stdout}\n`).toBe(readFileSync(join(project, '.wave', 'runs', id, 'steps', 'scan', 'attempt-1', 'stdout'), 'utf8'));
  });

  describe.skipIf(!requirementMet('script (util-linux)', existsSync('/usr/bin/script'), 'install util-linux, whose `script` gives wave diff a terminal'))('wave diff', () => {
    it('on a terminal shows the escapes of what the step wrote as text; piped, the diff stays exact', async () => {
      // `script` runs it on a pseudo-terminal, which ends each line with \r\n.
      const onTerminal = await execa('script', ['-qec', `${process.execPath} ${WAVE_BIN} diff ${id} --step scan`, '/dev/null'], { cwd: project, env: { NO_COLOR: '1' } });
      const shown = String(onTerminal.stdout).replace(/\r\n/g, '\n');
      expect(shown).toContain(`+${VISIBLE}\n`);
      expect(shown).not.toMatch(RAW_CONTROL);
      const piped = await runWave(['diff', id, '--step', 'scan'], { cwd: project });
      expect(piped.stdout).toContain(`+${ESCAPES.join('')}\n`);
    });
  });
});

describe('an error that quotes what was typed or given', () => {
  it('prints its escapes as text', async () => {
    const result = await runWave(['run', `no-such${ESCAPES.join('')}`], { cwd: makeProject({}) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no-such${VISIBLE}`);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});
