import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/state/record/run-record.js';
import { runWave, WAVE_BIN } from '../support/cli.js';
import { gatedPipeline, shipOrAbort } from '../support/gate-pipeline.js';
import { makeProject } from '../support/project.js';
import { findOnPath, requirementMet } from '../support/requirement.js';
import { runDirs } from '../support/runs.js';
import { waitFor } from '../support/wait.js';

// An approval gate on a terminal asks there, as Wave's CLI does: `script` gives `wave run` a real pseudo-terminal.

const CHOICES = shipOrAbort();

/** `wave run gated` on a pseudo-terminal whose keyboard is `type`; `seen()` is what the terminal showed so far. */
function onTerminal(project: string, extra = '') {
  const wave = execa('script', ['-qfec', `'${process.execPath}' '${WAVE_BIN}' run gated ${extra}`, '/dev/null'], {
    cwd: project,
    reject: false,
    timeout: 60_000,
    env: { NO_COLOR: '1' },
  });
  let shown = '';
  wave.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { wave, seen: () => shown, type: (text: string) => wave.stdin.write(text) };
}

function record(project: string): RunRecord {
  return JSON.parse(readFileSync(join(runDirs(project)[0]!, 'run.json'), 'utf8')) as RunRecord;
}

const hasScript = requirementMet('script', findOnPath('script') !== undefined, 'install the Debian package bsdutils');

describe.skipIf(!hasScript)('an approval gate on a terminal', () => {
  it('lists the choices and asks until one is typed (Enter: the default), then the text; the run goes on with the answer', async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    const { wave, seen, type } = onTerminal(project);
    await waitFor(() => seen().includes('Choice [y]: '), 'the question');
    expect(seen()).toContain('Gate approve: Ship it?');
    expect(seen()).toContain('[y] Ship → ship (default)');
    expect(seen()).toContain('[n] Abort (abort)');
    type('maybe\n');
    await waitFor(() => seen().includes('Type one of: y, n'), 'the question again');
    type('\n');
    await waitFor(() => seen().includes('Text (Enter for none): '), 'the text question');
    type('ship it today\n');
    const done = await wave;
    expect(done.exitCode, seen()).toBe(0);
    expect(record(project).steps.approve!.gate!.decision).toMatchObject({ by: 'person', key: 'y', text: 'ship it today' });
    expect(seen()).toContain('shipped y');
  });

  it('withdraws the question when the gate is answered from another shell', async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gatedPipeline(CHOICES) });
    const { wave, seen } = onTerminal(project, '--output text');
    await waitFor(() => seen().includes('Choice [y]: '), 'the question');
    const id = record(project).id;
    const rejected = await runWave(['reject', id, 'approve'], { cwd: project });
    expect(rejected.code, rejected.stderr).toBe(0);
    const done = await wave;
    expect(done.exitCode).toBe(1);
    expect(record(project).steps.approve!.gate!.decision).toMatchObject({ by: 'person', key: 'n' });
    expect(seen()).toContain('gate resolved by a person n "Abort" → _fail');
  });

  it('asks nothing at a gate `auto` resolves, and a gate without choices asks approve or reject', async () => {
    const auto = makeProject({ 'pipelines/gated.yaml': gatedPipeline(`${CHOICES}\n      auto: true`) });
    const ran = onTerminal(auto);
    expect((await ran.wave).exitCode).toBe(0);
    expect(ran.seen()).not.toContain('Choice');
    const plain = makeProject({ 'pipelines/gated.yaml': gatedPipeline('      type: approval') });
    const { wave, seen, type } = onTerminal(plain);
    await waitFor(() => seen().includes('Approve? [y/n]: '), 'the question');
    type('n\n');
    expect((await wave).exitCode).toBe(1);
    expect(record(plain).steps.approve!.status).toBe('failed');
  });
});
