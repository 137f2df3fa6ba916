import type { CheckEnvironment, CheckResult, PlannedContract, ReviewOutcome } from '../types.js';
import { reviewContext } from './review-context.js';
import { cutToSize, reviewPrompt } from './review-prompt.js';
import { parseReview, type ReviewFeedback } from './review-verdict.js';

/** A failed review: the reason is the contract's error and the review_failed event's. */
function failed(reviewer: string, reason: string, more: Partial<ReviewOutcome> = {}, details: string[] = []): CheckResult {
  return { passed: false, errors: [reason, ...details], review: { reviewer, ...more, reason } };
}

/** The feedback as the contract's log keeps it. */
function feedbackLog(feedback: ReviewFeedback): string {
  const issues = feedback.issues.map((i) => `- ${i.severity}: ${i.description}`);
  const suggestions = feedback.suggestions.map((s) => `- ${s}`);
  return [`verdict ${feedback.verdict} (confidence ${feedback.confidence})`, feedback.summary, ...issues, ...(suggestions.length ? ['suggestions:', ...suggestions] : [])].join(
    '\n',
  );
}

/**
 * Asks the contract's reviewer persona to review the step's work against the criteria file, shown the context
 * sources the contract lists, and reads its JSON verdict: fail fails the contract, pass and warn pass it.
 */
export async function checkAgentReview(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  const reviewer = contract.reviewer;
  if (!reviewer) return { passed: false, errors: ['the agent_review contract has no reviewer persona'] };
  const who = reviewer.persona.name;
  let context = env.review ? await reviewContext(contract.context ?? [], env.review) : '';
  // Wave reads `source` for no review; here it shows the reviewer that file too.
  if (contract.source) context += `### File: ${env.target.label}\n\n${env.target.text === undefined ? '[Warning: the file does not exist]' : cutToSize(env.target.text)}\n\n`;
  const prompt = reviewPrompt(reviewer.criteria, context);
  const answer = await env.ask({ adapter: reviewer.adapter, persona: reviewer.persona, model: reviewer.model, prompt, purpose: 'review', timeoutMs: reviewer.timeoutMs });
  if (!answer.ok) return failed(who, `the reviewer \`${who}\` could not answer: ${answer.message}`);
  const budget = contract.token_budget ?? 0;
  if (budget > 0 && (answer.tokens ?? 0) > budget)
    return failed(who, `the review used ${answer.tokens} tokens, over the contract's token_budget of ${budget}, so it does not count`);
  const parsed = parseReview(answer.text);
  if (!parsed.ok) return failed(who, parsed.error);
  const { feedback } = parsed;
  const outcome = { verdict: feedback.verdict, issues: feedback.issues.length, summary: feedback.summary };
  const output = feedbackLog(feedback);
  if (feedback.verdict !== 'fail') return { passed: true, errors: [], output, review: { reviewer: who, ...outcome } };
  const issues = feedback.issues.map((i) => `${i.severity}: ${i.description}`);
  return { ...failed(who, `agent review verdict: fail — ${feedback.summary}`, outcome, issues), output };
}
