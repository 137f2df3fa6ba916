import type { PlannedRequires } from './plan-requires.js';

/** The dry run's lines for a pipeline's `requires`: what is checked before any step runs. */
export function describeRequires(requires: PlannedRequires): string[] {
  if (requires.tools.length === 0 && requires.skills.length === 0) return [];
  const lines = ['', 'Requires (checked before any step runs):'];
  for (const tool of requires.tools) lines.push(`  tool ${tool.name} on PATH`);
  for (const skill of requires.skills) {
    const check = skill.check ? `\`${skill.check}\` succeeds` : 'no check: counts as missing';
    lines.push(`  skill ${skill.name}: ${check}${skill.optional ? ' (optional)' : ''}`);
  }
  return lines;
}
