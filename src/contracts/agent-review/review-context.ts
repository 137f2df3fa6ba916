import type { ReviewContextSource } from '../../config/schema/pipeline-schema.js';
import { cutToSize } from './review-prompt.js';

/** What the engine gives a review to show: the step's git diff and the run's artifacts. */
export interface ReviewMaterial {
  /** The step's changes against `base` (default: the first of origin/main, origin/master, main, master); the base is named as used. Throws when git cannot say. */
  gitDiff(base: string | undefined): Promise<{ base: string; diff: string }>;
  /** The text of the artifact of that name saved in this run; undefined when there is none. Throws when it cannot be read. */
  artifact(name: string): Promise<string | undefined>;
}

/** An error's message, for a line of the prompt. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One source as a section of the prompt's `## Context`; a source that cannot be read says so there instead of failing. */
async function contextSection(source: ReviewContextSource, material: ReviewMaterial): Promise<string> {
  if (source.source === 'git_diff') {
    try {
      const { base, diff } = await material.gitDiff(source.diff_base);
      return `### Git Diff\n\n${diff ? cutToSize(diff, source.max_size) : `No changes detected relative to ${base}.`}\n\n`;
    } catch (error) {
      return `### Git Diff\n\n[Error fetching git diff: ${messageOf(error)}]\n\n`;
    }
  }
  const name = source.artifact;
  let text: string | undefined;
  try {
    text = await material.artifact(name);
  } catch (error) {
    text = `[Error reading artifact "${name}": ${messageOf(error)}]`;
  }
  if (text === undefined) return `### Artifact: ${name}\n\n[Warning: artifact "${name}" not found]\n\n`;
  return `### Artifact: ${name}\n\n${cutToSize(text, source.max_size)}\n\n`;
}

/** The `## Context` body: each source in order; empty when the contract lists none. */
export async function reviewContext(sources: readonly ReviewContextSource[], material: ReviewMaterial): Promise<string> {
  const sections: string[] = [];
  for (const source of sources) sections.push(await contextSection(source, material));
  return sections.join('');
}
