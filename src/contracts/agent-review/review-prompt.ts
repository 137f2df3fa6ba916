/** Bytes of one context source the reviewer sees when the contract names no max_size (Wave's 50 KB). */
export const DEFAULT_CONTEXT_BYTES = 50 * 1024;

/** The verdict's shape as the reviewer is asked for it, word for word Wave's. */
const FEEDBACK_SHAPE = `{
  "verdict": "pass" | "fail" | "warn",
  "issues": [
    {"severity": "critical" | "major" | "minor" | "info", "description": "<description>"}
  ],
  "suggestions": ["<suggestion>"],
  "confidence": 0.0-1.0,
  "summary": "<one-sentence summary>"
}`;

/** `text` cut to `maxSize` bytes (0 or unset: 50 KB), with a notice saying where it was cut. */
export function cutToSize(text: string, maxSize?: number): string {
  const limit = maxSize && maxSize > 0 ? maxSize : DEFAULT_CONTEXT_BYTES;
  const bytes = Buffer.from(text);
  if (bytes.length <= limit) return text;
  // A cut inside a multi-byte character drops that character rather than leaving half of it.
  return `${bytes
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}\n\n[... truncated at ${limit} bytes ...]`;
}

/** The reviewer's prompt as Wave builds it: the criteria, the context when there is any, and the required JSON answer. */
export function reviewPrompt(criteria: string, context: string): string {
  return [
    `## Review Criteria\n\n${criteria}\n\n`,
    context ? `## Context\n\n${context}\n\n` : '',
    '## Required Output Format\n\n',
    'You MUST respond with a single JSON object matching this schema:\n\n',
    `\`\`\`json\n${FEEDBACK_SHAPE}\n\`\`\`\n\n`,
    'Rules:\n',
    '- verdict MUST be exactly "pass", "fail", or "warn"\n',
    '- issues MUST be an array (empty if verdict is pass)\n',
    '- confidence MUST be a float between 0.0 and 1.0\n',
    '- Return ONLY the JSON object, no other text outside the JSON block\n',
  ].join('');
}
