import { recoverJson } from './json-recovery.js';
import type { CheckEnvironment, CheckResult, PlannedContract } from './types.js';

/** The passing score when a judge contract names none. */
export const DEFAULT_JUDGE_THRESHOLD = 0.7;
/** Characters of the judged output the judge sees. */
const JUDGED_CHARS = 50_000;

/** The prompt a judge model gets: the criteria, the output, and the JSON shape to answer in. */
export function judgePrompt(contract: PlannedContract, text: string): string {
  const criteria = contract.criteria?.length ? contract.criteria : ['The output completes the task well.'];
  return [
    'You are a strict reviewer. Score the output below against each criterion.',
    '',
    'Criteria:',
    ...criteria.map((c, i) => `${i + 1}. ${c}`),
    '',
    'Output to judge:',
    '<<<OUTPUT',
    text.slice(0, JUDGED_CHARS),
    'OUTPUT>>>',
    '',
    'Answer with JSON only: {"score": <number from 0 to 1>, "reasons": ["<one line per unmet or met criterion>"]}',
  ].join('\n');
}

/** Asks the judge model for a score; below the threshold, or an answer without a score, fails. */
export async function checkLlmJudge(contract: PlannedContract, env: CheckEnvironment): Promise<CheckResult> {
  const { target } = env;
  if (target.text === undefined) return { passed: false, errors: [`${target.label} does not exist`] };
  const threshold = contract.threshold ?? DEFAULT_JUDGE_THRESHOLD;
  const answer = await env.ask({ adapter: contract.judge, model: contract.model, prompt: judgePrompt(contract, target.text), purpose: 'judge' });
  if (!answer.ok) return { passed: false, errors: [`the judge could not answer: ${answer.message}`] };
  const verdict = recoverJson(answer.text)?.value as { score?: unknown; reasons?: unknown } | undefined;
  const score = typeof verdict?.score === 'number' ? verdict.score : undefined;
  if (score === undefined) return { passed: false, errors: [`the judge answered without a numeric score: ${answer.text.slice(0, 300)}`] };
  const reasons = Array.isArray(verdict?.reasons) ? verdict.reasons.map(String) : [];
  const output = `score ${score} (threshold ${threshold})\n${reasons.join('\n')}`;
  if (score >= threshold) return { passed: true, errors: [], output };
  return { passed: false, errors: [`judge score ${score} is below the threshold ${threshold}`, ...reasons], output };
}
