import type { ArtifactDef } from '../config/schema/pipeline-schema.js';
import type { Step } from '../config/schema/pipeline-schema.js';
import { WaveError, type SourceLocation } from '../core/errors/errors.js';
import { parseBrowserActions } from '../core/browser/browser-actions.js';
import { screenshotFile } from '../core/browser/screenshot-file.js';
import { referenceLocation } from './template-location.js';

const ACTION_LIST_HINT =
  'Give exec.source as a JSON array of actions such as [{"action": "navigate", "url": "{{ input }}"}, {"action": "screenshot"}]; docs/browser-adapter.md lists each action\'s keys.';

/** Step keys a browser step cannot use: it runs an action list, no model and no agent. */
const IDLE_KEYS = ['model', 'max_concurrent_agents', 'thread'] as const;

/** What is wrong with a step on the browser adapter: an action list that does not parse or check, or keys that would do nothing. */
export function browserStepProblems(step: Step, template: string, start: SourceLocation, locate: (key: string) => SourceLocation): WaveError[] {
  const label = `step \`${step.id}\``;
  const idle = IDLE_KEYS.filter((key) => step[key] !== undefined).map(
    (key) =>
      new WaveError('pipeline_invalid', `${label} runs on the browser adapter, so its \`${key}\` would do nothing`, {
        location: locate(key),
        hint: `Remove \`${key}\`: a browser step runs its action list in a headless Chromium, with no model or agent.`,
      }),
  );
  const parsed = parseBrowserActions(template);
  if (!('problems' in parsed)) return idle;
  const listProblems = parsed.problems.map(
    (problem) =>
      new WaveError('pipeline_invalid', `${label}'s browser action list: ${problem.message}`, {
        location: referenceLocation(template, { offset: problem.offset, text: template.slice(problem.offset, problem.offset + 1) }, start),
        hint: ACTION_LIST_HINT,
      }),
  );
  return [...idle, ...listProblems];
}

/** The output artifacts of a browser step: its own, then one per screenshot action, named `screenshot-<n>`, at the file the runner writes. */
export function browserOutputArtifacts(stepId: string, template: string, declared: readonly ArtifactDef[]): ArtifactDef[] {
  const parsed = parseBrowserActions(template);
  if ('problems' in parsed) return [...declared];
  const shots = parsed.actions.filter((action) => action.action === 'screenshot');
  return [...declared, ...shots.map((shot, i) => ({ name: `screenshot-${i + 1}`, path: screenshotFile(stepId, i + 1, shot.format), type: shot.format ?? 'png' }))];
}
