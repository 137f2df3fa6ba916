import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { describe, expect, it } from 'vitest';
import { CassetteEntries } from '../../src/app/cassette/cassette-entries.js';
import { openCassette } from '../../src/app/cassette/open-cassette.js';
import { childReplayOptions } from '../../src/app/replay-options.js';
import { CassetteSchema } from '../../src/state/cassette-schema.js';
import { waveErrorOf } from '../support/wave-error.js';

type Entry = Parameters<CassetteEntries['accept']>[1];
const entry = (type: string, size = 0, mode = 0o644) => ({ type, size, mode }) as unknown as Entry;

describe('the entries a cassette may hold', () => {
  it.each([
    ['/etc/passwd', 'File', 'not a plain relative path'],
    ['runs/../../evil', 'File', 'not a plain relative path'],
    ['runs//r/x', 'File', 'not a plain relative path'],
    ['runs/./r/x', 'File', 'not a plain relative path'],
    ['.', 'File', 'not a plain relative path'],
    ['runs/r/hard', 'Link', 'is a hard link'],
    ['runs/r/dev', 'CharacterDevice', 'is a character device'],
    ['runs/r/disk', 'BlockDevice', 'is a block device'],
    ['runs/r/fifo', 'FIFO', 'is a named pipe'],
    ['notes.txt', 'File', 'neither cassette.json nor under runs/'],
    ['other/', 'Directory', 'neither cassette.json nor under runs/'],
  ])('refuses `%s` (%s), and everything after it', (path, type, problem) => {
    const entries = new CassetteEntries();
    expect(entries.accept(path, entry(type))).toBe(false);
    expect(entries.problem).toContain(problem);
    expect(entries.accept('cassette.json', entry('File'))).toBe(false);
  });

  it('accepts cassette.json and plain files and folders under runs/, readable by their owner and never setuid', () => {
    const entries = new CassetteEntries();
    const file = entry('File', 10, 0o4000);
    const folder = entry('Directory', 0, 0o000);
    expect([entries.accept('cassette.json', entry('File')), entries.accept('runs/r/', folder), entries.accept('runs/r/run.json', file)]).toEqual([true, true, true]);
    expect(entries.problem).toBeUndefined();
    expect((file as unknown as { mode: number }).mode).toBe(0o600);
    expect((folder as unknown as { mode: number }).mode).toBe(0o700);
  });

  it('accepts the `./` that `tar -C folder .` puts before every entry', () => {
    const entries = new CassetteEntries();
    expect(['./', './cassette.json', './runs/', './runs/r/run.json'].map((path) => entries.accept(path, entry(path.endsWith('/') ? 'Directory' : 'File')))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(entries.accept('./notes.txt', entry('File'))).toBe(false);
  });

  it('refuses once the entries, with a 512-byte header each, add up to more than the cap', () => {
    const entries = new CassetteEntries(1200);
    expect(entries.accept('runs/r/a', entry('File', 60))).toBe(true);
    expect(entries.accept('runs/r/', entry('Directory'))).toBe(true);
    expect(entries.accept('runs/r/b', entry('File', 60))).toBe(false);
    expect(entries.problem).toBe('it unpacks to more than 1200 bytes');
  });
});

/** Expects `promise` to reject with a WaveError of `code` whose message contains `text`. */
async function expectWaveError(promise: Promise<unknown>, code: string, text: string): Promise<void> {
  const error = await waveErrorOf(promise);
  expect(error.code).toBe(code);
  expect(error.message).toContain(text);
}

describe('openCassette', () => {
  async function cassetteFile(dir: string, files: Record<string, string>): Promise<string> {
    const src = join(dir, 'src');
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(src, path, '..'), { recursive: true });
      writeFileSync(join(src, path), content);
    }
    const file = join(dir, 'c.tgz');
    await create({ gzip: true, file, cwd: src, portable: true }, readdirSync(src));
    return file;
  }
  const cassette = { kind: 'WaveCassette', version: 1, run: 'r-1', pipeline: 'p', runs: ['r-1'], createdAt: '2026-01-02T03:04:05.000Z', wave: '0.1.0' };

  it('unpacks into .wave/cassettes/<16 hex>/ once and reuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wave-cassette-'));
    const file = await cassetteFile(dir, { 'cassette.json': JSON.stringify(cassette), 'runs/r-1/run.json': '{}' });
    const opened = await openCassette(file, dir);
    expect(opened.cassette).toEqual(cassette);
    expect(opened.runsRoot).toMatch(new RegExp(`^${dir}/\\.wave/cassettes/[0-9a-f]{16}/runs$`));
    expect(existsSync(join(opened.runsRoot, 'r-1', 'run.json'))).toBe(true);
    expect(await openCassette(file, dir)).toEqual(opened);
    expect(readdirSync(join(dir, '.wave', 'cassettes'))).toHaveLength(1);
  });

  it('refuses a cassette past the size cap, or naming a run it does not hold, leaving nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wave-cassette-'));
    const big = await cassetteFile(dir, { 'cassette.json': JSON.stringify(cassette), 'runs/r-1/run.json': 'x'.repeat(4096) });
    await expectWaveError(openCassette(big, dir, 1024), 'cassette_invalid', `cassette ${big}: it unpacks to more than 1024 bytes`);
    const hollow = await cassetteFile(mkdtempSync(join(tmpdir(), 'wave-cassette-')), {
      'cassette.json': JSON.stringify({ ...cassette, runs: ['r-1', 'r-2'] }),
      'runs/r-1/run.json': '{}',
    });
    await expectWaveError(openCassette(hollow, dir), 'cassette_invalid', 'names run r-2, whose folder runs/r-2/ it does not hold');
    const noJson = await cassetteFile(mkdtempSync(join(tmpdir(), 'wave-cassette-')), { 'runs/r-1/run.json': '{}' });
    await expectWaveError(openCassette(noJson, dir), 'cassette_invalid', 'holds no cassette.json');
    expect(readdirSync(join(dir, '.wave', 'cassettes'))).toEqual([]);
  });
});

describe('the cassette format', () => {
  const valid = { kind: 'WaveCassette', version: 1, run: 'r-1', pipeline: 'p', runs: ['r-1'], createdAt: '2026-01-02T03:04:05.000Z', wave: '0.1.0' };

  it.each(['../p.yaml', '/abs/p.yaml', 'pipelines/../../p.yaml', 'a\\b.yaml'])('refuses the pipeline file %s, which would lead out of the project', (pipelineFile) => {
    expect(CassetteSchema.safeParse({ ...valid, pipelineFile }).success).toBe(false);
  });

  it('refuses a run id that is not a folder name, a list not led by the run, and an unknown key', () => {
    expect(CassetteSchema.safeParse({ ...valid, pipelineFile: 'pipelines/p.yaml' }).success).toBe(true);
    expect(CassetteSchema.safeParse({ ...valid, run: '../r', runs: ['../r'] }).success).toBe(false);
    expect(CassetteSchema.safeParse({ ...valid, runs: ['r-2', 'r-1'] }).success).toBe(false);
    expect(CassetteSchema.safeParse({ ...valid, extra: true }).success).toBe(false);
  });
});

describe('a child run of a recording', () => {
  it('whose recorded id is not a folder name replays from no folder, never one outside the recording', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wave-recorded-'));
    const started = (childRunId: string) => JSON.stringify({ type: 'child_run_started', stepId: 's', childRunId });
    writeFileSync(join(dir, 'events.ndjson'), `${started('../../elsewhere')}\n${started('child-1')}\n`);
    expect(childReplayOptions({ replayOf: dir }, 's', undefined, 0).replayOf).toBe(join(dir, 'no-recorded-child-run'));
    expect(childReplayOptions({ replayOf: dir }, 's', undefined, 1).replayOf).toBe(join(dir, '..', 'child-1'));
  });
});
