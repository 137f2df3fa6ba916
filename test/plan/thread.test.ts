import { describe, expect, it } from 'vitest';
import { describePlan } from '../../src/plan/describe-plan.js';
import { planProject, pipelineOf } from './plan-project.js';
import { attemptSteps } from '../support/attempt-steps.js';

const MANIFEST = `kind: WaveManifest
metadata: { name: t }
adapters:
  claude: { binary: claude, model: sonnet }
personas:
  agent: { adapter: claude }
`;

// File order a, b, d, lint, e, solo, other; e lists its dependencies as [d, lint] and reaches b only through lint.
const PIPELINE = pipelineOf(
  '{ id: a, persona: agent, thread: impl, exec: { source: "plan it" } }',
  '{ id: b, persona: agent, thread: impl, fidelity: compact, dependencies: [a], exec: { source: "build it" } }',
  '{ id: d, persona: agent, thread: impl, fidelity: fresh, dependencies: [a], exec: { source: "document it" } }',
  '{ id: lint, thread: impl, dependencies: [b], exec: { type: command, source: "make lint" } }',
  '{ id: e, persona: agent, thread: impl, fidelity: summary, dependencies: [d, lint], exec: { source: "review it" } }',
  '{ id: solo, persona: agent, dependencies: [e], exec: { source: "no thread" } }',
  '{ id: other, persona: agent, thread: side, dependencies: [e], exec: { source: "side thread" } }',
);

/** The lines describePlan prints for one step, up to the next step. */
function stepBlock(text: string, id: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`Step ${id}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('Step '));
  return lines.slice(start, end < 0 ? undefined : end).filter((line) => line !== '');
}

describe('a planned step in a thread', () => {
  it("carries the thread's name, its fidelity (full by default) and the thread's steps it depends on transitively, in file order", async () => {
    const { plan } = await planProject({ manifest: MANIFEST, pipeline: PIPELINE });
    const threads = Object.fromEntries(attemptSteps(plan).map((s) => [s.id, s.thread]));
    expect(threads).toEqual({
      a: { name: 'impl', fidelity: 'full', earlier: [] },
      b: { name: 'impl', fidelity: 'compact', earlier: ['a'] },
      d: { name: 'impl', fidelity: 'fresh', earlier: ['a'] },
      lint: { name: 'impl', fidelity: 'full', earlier: ['a', 'b'] },
      // Not [d, lint] as listed, nor [d, a, b] as walked: every impl step it runs after, in the file's order.
      e: { name: 'impl', fidelity: 'summary', earlier: ['a', 'b', 'd', 'lint'] },
      solo: undefined,
      // Another thread's steps are not its earlier ones, although it runs after all of them.
      other: { name: 'side', fidelity: 'full', earlier: [] },
    });
    expect(attemptSteps(plan).find((s) => s.id === 'solo')).not.toHaveProperty('thread');
  });

  it('describePlan says what each step receives, and opens a receiving prompt with a <thread …> line', async () => {
    const { plan } = await planProject({ manifest: MANIFEST, pipeline: PIPELINE });
    const text = describePlan(plan);
    expect(stepBlock(text, 'a')).toContain("  thread:    impl, fidelity full: the thread's first step");
    expect(stepBlock(text, 'b')).toContain('  thread:    impl, fidelity compact: receives the transcripts of a');
    expect(stepBlock(text, 'd')).toContain('  thread:    impl, fidelity fresh: receives nothing; its transcript joins the thread');
    expect(stepBlock(text, 'lint')).toContain('  thread:    impl, fidelity full: a command receives nothing; its output joins the thread');
    expect(stepBlock(text, 'e')).toContain('  thread:    impl, fidelity summary: receives the transcripts of a, b, d, lint');
    expect(stepBlock(text, 'solo').some((line) => line.startsWith('  thread:') || line.includes('<thread'))).toBe(false);
    // The prompt of a receiving step starts with what it receives, then its own text.
    const e = stepBlock(text, 'e');
    const prompt = e.indexOf('  prompt:');
    expect(e.slice(prompt + 1)).toEqual(['    │ <thread impl: the transcripts of a, b, d, lint at fidelity summary>', '    │', '    │ review it']);
    const b = stepBlock(text, 'b');
    expect(b.slice(b.indexOf('  prompt:') + 1)).toEqual(['    │ <thread impl: the transcripts of a at fidelity compact>', '    │', '    │ build it']);
    // Nothing to receive: the first step, a fresh step and a command show their text alone.
    for (const [id, body] of [
      ['a', '    │ plan it'],
      ['d', '    │ document it'],
      ['other', '    │ side thread'],
    ] as const) {
      const block = stepBlock(text, id);
      expect(block.slice(block.indexOf('  prompt:') + 1)).toEqual([body]);
    }
    const lint = stepBlock(text, 'lint');
    expect(lint.slice(lint.indexOf('  command:') + 1)).toEqual(['    │ make lint']);
    // The thread line sits after the limits and before the prompt.
    expect(e.findIndex((l) => l.startsWith('  thread:'))).toBeGreaterThan(e.findIndex((l) => l.startsWith('  timeout:')));
  });
});
