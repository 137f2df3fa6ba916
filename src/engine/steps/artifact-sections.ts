import { relative, sep } from 'node:path';
import type { AttemptStep } from '../../plan/plan-types.js';

/** A path relative to the workspace, with forward slashes as a prompt shows it. */
const shown = (workspace: string, path: string): string => relative(workspace, path).split(sep).join('/');

/**
 * Wave's "## Output Artifacts" and "## Input Artifacts" sections, put before an agent step's prompt as Wave does, so
 * the agent knows where to write its artifacts and where the injected ones are (Wave's prompts say "the output artifact
 * path defined above"). `injected` is `as` -> absolute path of the artifacts placed in `workspace`.
 */
export function withArtifactSections(prompt: string, step: AttemptStep, injected: Readonly<Record<string, string>>, workspace: string): string {
  let text = prompt;
  const inputs = step.injectArtifacts.filter((ref) => injected[ref.as ?? ref.artifact] !== undefined);
  if (inputs.length) {
    const lines = inputs.map((ref) => {
      const from = ref.pipeline !== undefined ? `pipeline \`${ref.pipeline}\`` : `step \`${ref.step ?? ''}\``;
      return `- \`${shown(workspace, injected[ref.as ?? ref.artifact]!)}\` (from ${from}, artifact \`${ref.artifact}\`)`;
    });
    text = `\n## Input Artifacts\n\nUpstream artifacts have been placed in your workspace at these paths:\n\n${lines.join('\n')}\n\nRead these files at the paths shown. They are guaranteed to exist before this step runs.\n\n${text}`;
  }
  // An artifact taken from the step's output is no file the agent writes.
  const outputs = step.outputArtifacts.filter((def) => def.source !== 'stdout');
  if (outputs.length) {
    const lines = outputs.map((def) => `- \`${def.path ?? def.name}\` (as: ${def.name})`);
    text = `\n## Output Artifacts\n\nWrite the requested artifacts to these paths (in workspace root):\n\n${lines.join('\n')}\n\nThe pipeline will validate these artifacts. Write to the exact paths above.\n\n${text}`;
  }
  return text;
}
