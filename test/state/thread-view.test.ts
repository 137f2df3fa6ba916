import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NO_TOKENS } from '../../src/core/models/tokens.js';
import type { Round } from '../../src/state/thread/thread-rounds.js';
import { renderRound, roundFields, roundHeader } from '../../src/state/thread/thread-view.js';

const FULL: Round = {
  stepId: 'implement',
  attempt: 2,
  finishedAt: '2024-05-01T12:34:56.789Z',
  persona: 'craftsman',
  adapter: 'claude',
  model: 'sonnet',
  passed: false,
  exitCode: 1,
  failure: { class: 'contract_failed', message: 'contract json_schema failed: /verdict: must be string' },
  durationMs: 4321,
  tokens: { input: 1200, output: 340, cacheRead: 50, cacheWrite: 7 },
  costUsd: 0.0123,
  filesChanged: [
    { path: 'src/a.ts', change: 'modified', added: 3, removed: 1 },
    { path: 'logo: new.png', change: 'added', binary: true },
    { path: 'old.txt', change: 'deleted', added: 0 },
  ],
  contracts: [
    { contract: 'json_schema', passed: false, errors: ['/verdict: must be string', 'a "quoted" error: with colon'] },
    { contract: 'non_empty_file', passed: true, errors: [] },
  ],
  output: { verdict: 'approve', findings: [{ file: 'a.ts', line: 3 }] },
  body: 'I changed src/a.ts.\n---\nThe tests pass.\n',
};

/** The frontmatter of a rendered round, and the body after it. */
function split(text: string): { header: string; frontmatter: string; body: string } {
  const lines = text.split('\n');
  expect(lines[1]).toBe('---');
  const end = lines.indexOf('---', 2);
  expect(end).toBeGreaterThan(2);
  return { header: lines[0]!, frontmatter: lines.slice(2, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

describe('renderRound', () => {
  it('prints the header, the fields as YAML frontmatter between --- lines, then the body', () => {
    const { header, frontmatter, body } = split(renderRound(7, FULL));
    expect(header).toBe('[#7 implement] 2024-05-01T12:34:56.789Z');
    expect(header).toBe(roundHeader(7, FULL));
    // The body is quoted line by line: its own --- line cannot close anything.
    expect(body).toBe('> I changed src/a.ts.\n> ---\n> The tests pass.');
    expect(parse(frontmatter)).toEqual({
      persona: 'craftsman',
      adapter: 'claude',
      model: 'sonnet',
      status: 'failed',
      exit_code: 1,
      failure: { class: 'contract_failed', message: 'contract json_schema failed: /verdict: must be string' },
      attempt: 2,
      duration_ms: 4321,
      tokens: { input: 1200, output: 340, cache_read: 50, cache_write: 7 },
      cost_usd: 0.0123,
      files_changed: [
        { path: 'src/a.ts', change: 'modified', added: 3, removed: 1 },
        { path: 'logo: new.png', change: 'added' },
        { path: 'old.txt', change: 'deleted', added: 0, removed: 0 },
      ],
      contracts: [
        { contract: 'json_schema', passed: false, errors: ['/verdict: must be string', 'a "quoted" error: with colon'] },
        { contract: 'non_empty_file', passed: true },
      ],
      output: { verdict: 'approve', findings: [{ file: 'a.ts', line: 3 }] },
    });
    expect(parse(frontmatter)).toEqual(roundFields(FULL));
  });

  it('keeps a token count, a failure, a changed file and a contract on one line each', () => {
    const { frontmatter } = split(renderRound(1, FULL));
    const lines = frontmatter.split('\n');
    expect(lines).toContain('tokens: { input: 1200, output: 340, cache_read: 50, cache_write: 7 }');
    expect(lines.filter((l) => l.startsWith('  - { path:'))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('  - { contract:'))).toHaveLength(2);
    expect(lines.some((l) => l.startsWith('failure: { class: contract_failed'))).toBe(true);
  });

  it('leaves out what an attempt does not have: persona, model, failure, zero tokens, cost, files, contracts, output', () => {
    const bare: Round = {
      stepId: 'lint',
      attempt: 1,
      finishedAt: '2024-05-01T12:00:00.000Z',
      adapter: 'command',
      passed: true,
      exitCode: 0,
      durationMs: 12,
      tokens: { ...NO_TOKENS },
      filesChanged: [],
      contracts: [],
      body: 'ok',
    };
    const { frontmatter, body } = split(renderRound(2, bare));
    expect(parse(frontmatter)).toEqual({ adapter: 'command', status: 'passed', exit_code: 0, attempt: 1, duration_ms: 12 });
    expect(Object.keys(parse(frontmatter) as object)).toEqual(['adapter', 'status', 'exit_code', 'attempt', 'duration_ms']);
    expect(body).toBe('> ok');
  });

  it('prints a killed attempt’s exit code as null, and a body given instead of the round’s own', () => {
    const killed: Round = { ...FULL, exitCode: null, passed: false };
    const { frontmatter, body } = split(renderRound(3, killed, 'replacement body\n\n'));
    expect((parse(frontmatter) as Record<string, unknown>).exit_code).toBeNull();
    expect(body).toBe('> replacement body');
  });
});
