import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contracts/check-contract.js';
import { reviewContext, type ReviewMaterial } from '../../src/contracts/agent-review/review-context.js';
import { cutToSize, reviewPrompt } from '../../src/contracts/agent-review/review-prompt.js';
import { parseReview } from '../../src/contracts/agent-review/review-verdict.js';
import type { AskModel, CheckEnvironment, PlannedContract } from '../../src/contracts/types.js';

const verdict = (fields: Record<string, unknown>) => JSON.stringify({ verdict: 'pass', issues: [], suggestions: [], confidence: 0.9, summary: 'Fine.', ...fields });

describe('reading a reviewer verdict', () => {
  it('reads the whole answer as JSON', () => {
    expect(parseReview(verdict({ verdict: 'warn', issues: [{ severity: 'minor', description: 'A typo.' }] }))).toEqual({
      ok: true,
      feedback: { verdict: 'warn', issues: [{ severity: 'minor', description: 'A typo.' }], suggestions: [], confidence: 0.9, summary: 'Fine.' },
    });
  });

  it('reads the first JSON block of an answer with prose or a fence around it', () => {
    const fenced = parseReview(`\`\`\`json\n${verdict({ verdict: 'fail', summary: 'No tests.' })}\n\`\`\``);
    expect(fenced).toMatchObject({ ok: true, feedback: { verdict: 'fail', summary: 'No tests.' } });
    const prose = parseReview(`Here is my review:\n${verdict({ summary: 'Clean.' })}\nThanks.`);
    expect(prose).toMatchObject({ ok: true, feedback: { verdict: 'pass', summary: 'Clean.' } });
  });

  it("reads the last NDJSON line carrying a verdict, a stream result's text included", () => {
    const stream = [
      '{"type":"system","subtype":"init"}',
      verdict({ summary: 'First.' }),
      JSON.stringify({ type: 'result', result: `Done.\n${verdict({ verdict: 'warn', summary: 'Last.' })}` }),
      '{"type":"usage"}',
    ].join('\n');
    expect(parseReview(stream)).toMatchObject({ ok: true, feedback: { verdict: 'warn', summary: 'Last.' } });
  });

  it('fills absent lists, confidence and summary as Go leaves them: empty, 0', () => {
    expect(parseReview('{"verdict":"pass"}')).toEqual({ ok: true, feedback: { verdict: 'pass', issues: [], suggestions: [], confidence: 0, summary: '' } });
  });

  it('finds no verdict in an empty answer, in prose, or in an object of the wrong shape', () => {
    expect(parseReview('  ')).toEqual({ ok: false, error: 'the reviewer produced no output' });
    expect(parseReview('Looks good to me.')).toMatchObject({ ok: false, error: expect.stringContaining('no JSON object with a "verdict"') });
    expect(parseReview('{"verdict": "pass", "confidence": "high"}')).toMatchObject({ ok: false, error: expect.stringContaining('no JSON object with a "verdict"') });
  });

  it('refuses a verdict other than pass, fail or warn, and a confidence outside 0 to 1', () => {
    expect(parseReview(verdict({ verdict: 'maybe' }))).toEqual({ ok: false, error: 'the reviewer\'s verdict "maybe" is not pass, fail or warn' });
    expect(parseReview(verdict({ confidence: 1.5 }))).toEqual({ ok: false, error: "the reviewer's confidence 1.5 is outside 0 to 1" });
  });
});

describe("the reviewer's prompt", () => {
  it("is Wave's: criteria, context, and the required output format", () => {
    const prompt = reviewPrompt('Check the tests.', '### Git Diff\n\n+a\n\n');
    expect(prompt.startsWith('## Review Criteria\n\nCheck the tests.\n\n## Context\n\n### Git Diff\n\n+a\n\n\n\n## Required Output Format\n\n')).toBe(true);
    expect(prompt).toContain('"verdict": "pass" | "fail" | "warn"');
    expect(prompt).toContain('{"severity": "critical" | "major" | "minor" | "info", "description": "<description>"}');
    expect(prompt.endsWith('- Return ONLY the JSON object, no other text outside the JSON block\n')).toBe(true);
    expect(reviewPrompt('C', '')).not.toContain('## Context');
  });

  it('cuts a source at max_size bytes (50 KB by default) and says so', () => {
    expect(cutToSize('abcdef', 4)).toBe('abcd\n\n[... truncated at 4 bytes ...]');
    expect(cutToSize('x'.repeat(50 * 1024))).toBe('x'.repeat(50 * 1024));
    expect(cutToSize('x'.repeat(50 * 1024 + 1))).toContain('[... truncated at 51200 bytes ...]');
    expect(cutToSize('ééé', 3)).toBe('é\n\n[... truncated at 3 bytes ...]');
  });

  it('shows each source in order; an empty diff, a missing artifact and a failing source say so in their place', async () => {
    const material: ReviewMaterial = {
      gitDiff: async (base) => (base === 'broken' ? Promise.reject(new Error('no repository')) : { base: base ?? 'main', diff: base === 'empty' ? '' : '+added line\n' }),
      artifact: async (name) => (name === 'plan' ? '# Plan' : name === 'locked' ? Promise.reject(new Error('EACCES')) : undefined),
    };
    const context = await reviewContext(
      [
        { source: 'git_diff' },
        { source: 'git_diff', diff_base: 'empty' },
        { source: 'git_diff', diff_base: 'broken' },
        { source: 'artifact', artifact: 'plan', max_size: 3 },
        { source: 'artifact', artifact: 'nothing' },
        { source: 'artifact', artifact: 'locked' },
      ],
      material,
    );
    expect(context).toBe(
      [
        '### Git Diff\n\n+added line\n\n\n',
        '### Git Diff\n\nNo changes detected relative to empty.\n\n',
        '### Git Diff\n\n[Error fetching git diff: no repository]\n\n',
        '### Artifact: plan\n\n# P\n\n[... truncated at 3 bytes ...]\n\n',
        '### Artifact: nothing\n\n[Warning: artifact "nothing" not found]\n\n',
        '### Artifact: locked\n\n[Error reading artifact "locked": EACCES]\n\n',
      ].join(''),
    );
  });
});

describe('the agent_review check', () => {
  const persona = { name: 'reviewer', systemPrompt: 'You review.', allowedTools: [], deniedTools: [], allowedDomains: [], skills: [] };
  const reviewer = { persona, adapter: { name: 'claude', type: 'claude' as const, env: {}, isolated: false }, model: 'cheapest', criteria: 'Be strict.', timeoutMs: 90_000 };
  const review = (c: Partial<PlannedContract> = {}): PlannedContract => ({ type: 'agent_review', persona: 'reviewer', target: { kind: 'output' }, reviewer, ...c });
  const material: ReviewMaterial = { gitDiff: async () => ({ base: 'main', diff: '+x\n' }), artifact: async () => undefined };
  const asked: Array<Parameters<AskModel>[0]> = [];
  const env = (answer: string, tokens = 100, label = 'out.md', text?: string): CheckEnvironment => ({
    target: { text, label },
    workspace: tmpdir(),
    projectRoot: tmpdir(),
    env: {},
    signal: new AbortController().signal,
    review: material,
    ask: async (request) => {
      asked.push(request);
      return { ok: true, text: answer, tokens };
    },
  });

  it("asks the reviewer persona, on its adapter, model and timeout, with Wave's prompt", async () => {
    asked.length = 0;
    const result = await checkContract(review({ context: [{ source: 'git_diff' }] }), env(verdict({ verdict: 'warn', summary: 'Mostly fine.' })));
    expect(result).toMatchObject({ passed: true, review: { reviewer: 'reviewer', verdict: 'warn', issues: 0, summary: 'Mostly fine.' } });
    expect(asked[0]).toMatchObject({ purpose: 'review', persona, adapter: reviewer.adapter, model: 'cheapest', timeoutMs: 90_000 });
    expect(asked[0]!.prompt).toBe(reviewPrompt('Be strict.', '### Git Diff\n\n+x\n\n\n'));
  });

  it('fails on a fail verdict with its summary and issues', async () => {
    const answer = verdict({ verdict: 'fail', summary: 'No tests.', issues: [{ severity: 'major', description: 'parse() is untested.' }] });
    const result = await checkContract(review(), env(answer));
    expect(result).toMatchObject({
      passed: false,
      errors: ['agent review verdict: fail — No tests.', 'major: parse() is untested.'],
      review: { verdict: 'fail', issues: 1, reason: 'agent review verdict: fail — No tests.' },
    });
  });

  it('fails a review over its token_budget whatever the verdict; 0 is no limit', async () => {
    const over = await checkContract(review({ token_budget: 50 }), env(verdict({}), 51));
    expect(over.errors).toEqual(["the review used 51 tokens, over the contract's token_budget of 50, so it does not count"]);
    expect((await checkContract(review({ token_budget: 0 }), env(verdict({}), 1_000_000))).passed).toBe(true);
  });

  it('fails without a verdict, and when the reviewer cannot answer', async () => {
    expect((await checkContract(review(), env('I reviewed it.'))).review).toMatchObject({ reason: expect.stringContaining('no JSON object with a "verdict"') });
    const silent = { ...env(''), ask: (async () => ({ ok: false, message: 'claude: timed out' })) as AskModel };
    expect((await checkContract(review(), silent)).errors).toEqual(['the reviewer `reviewer` could not answer: claude: timed out']);
  });

  it('shows the file a contract `source` names', async () => {
    asked.length = 0;
    await checkContract(review({ source: 'report.md' }), env(verdict({}), 1, 'report.md', '# Report'));
    expect(asked[0]!.prompt).toContain('## Context\n\n### File: report.md\n\n# Report\n\n');
  });
});
