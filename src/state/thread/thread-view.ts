import { Document, isMap, isSeq } from 'yaml';
import { quotedBlock, safeText } from '../../core/terminal-safe.js';
import type { Round } from './thread-rounds.js';

/** The structured fields of a round, as its YAML frontmatter and `wave thread --json` show them. */
export function roundFields(round: Round): Record<string, unknown> {
  const hasTokens = Object.values(round.tokens).some((n) => n > 0);
  return {
    ...(round.persona !== undefined ? { persona: round.persona } : {}),
    adapter: round.adapter,
    ...(round.model !== undefined ? { model: round.model } : {}),
    status: round.passed ? 'passed' : 'failed',
    exit_code: round.exitCode,
    ...(round.failure ? { failure: { class: round.failure.class, message: round.failure.message } } : {}),
    attempt: round.attempt,
    duration_ms: round.durationMs,
    ...(hasTokens ? { tokens: { input: round.tokens.input, output: round.tokens.output, cache_read: round.tokens.cacheRead, cache_write: round.tokens.cacheWrite } } : {}),
    ...(round.costUsd !== undefined ? { cost_usd: round.costUsd } : {}),
    ...(round.filesChanged.length
      ? { files_changed: round.filesChanged.map((f) => ({ path: f.path, change: f.change, ...(f.added !== undefined ? { added: f.added, removed: f.removed ?? 0 } : {}) })) }
      : {}),
    ...(round.contracts.length ? { contracts: round.contracts.map((c) => ({ contract: c.contract, passed: c.passed, ...(c.errors.length ? { errors: c.errors } : {}) })) } : {}),
    ...(round.output ? { output: round.output } : {}),
  };
}

/** `[#<round> <step>] <ISO time>`: the header line of a round. */
export function roundHeader(number: number, round: Round): string {
  return `[#${number} ${round.stepId}] ${round.finishedAt}`;
}

/**
 * A round as text: its header, its fields as YAML frontmatter between `---` lines, then its body quoted line by line
 * (`> `), so no line of the step's output can pass for a header or a frontmatter line; `note` is a line of Wave's own
 * between the frontmatter and the body.
 */
export function renderRound(number: number, round: Round, body = round.body, note?: string): string {
  const frontmatter = new Document(roundFields(round));
  // One line per token count, changed file or contract keeps a round short in an agent's budget.
  if (isMap(frontmatter.contents)) {
    for (const key of ['tokens', 'failure']) {
      const node = frontmatter.contents.get(key, true);
      if (isMap(node)) node.flow = true;
    }
    for (const key of ['files_changed', 'contracts']) {
      const list = frontmatter.contents.get(key, true);
      if (isSeq(list)) for (const item of list.items) if (isMap(item)) item.flow = true;
    }
  }
  // YAML quotes and indents what the step wrote; its control characters are shown escaped all the same.
  const fields = safeText(frontmatter.toString({ lineWidth: 0 }).trimEnd());
  const shown = body.trimEnd();
  return [roundHeader(number, round), '---', fields, '---', ...(note ? [note] : []), ...(shown ? [quotedBlock(shown)] : [])].join('\n');
}
