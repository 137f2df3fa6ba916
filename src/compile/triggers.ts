import { unevaluated } from './workflow-text.js';

/** The events a compiled workflow may start on (`wave compile --on`). */
export const TRIGGERS = ['pull_request', 'push', 'workflow_dispatch', 'workflow_call'] as const;

/** One event a compiled workflow starts on. */
export type Trigger = (typeof TRIGGERS)[number];

/** What a workflow starts on unless `--on` says otherwise: by hand, or called by another workflow. */
export const DEFAULT_TRIGGERS: readonly Trigger[] = ['workflow_dispatch', 'workflow_call'];

/** The triggers that hand the workflow an `input` (the others run the pipeline's default input). */
const INPUT_TRIGGERS: ReadonlySet<Trigger> = new Set(['workflow_dispatch', 'workflow_call']);

/** Whether `value` is an event a compiled workflow may start on. */
export function isTrigger(value: string): value is Trigger {
  return (TRIGGERS as readonly string[]).includes(value);
}

/** The `input` declarations and `workflow_call` extras the `on:` block needs; the events without inputs take none. */
export interface TriggerParts {
  input: Record<string, unknown>;
  /** The secrets a calling workflow may pass (undefined: none). */
  callSecrets?: Record<string, { required: boolean }>;
  callOutputs: Record<string, unknown>;
}

/** The workflow's `on:`: a single event as its name, events without inputs as a list, else a mapping with each event's settings. */
export function workflowOn(triggers: readonly Trigger[], parts: TriggerParts): unknown {
  if (!triggers.some((t) => INPUT_TRIGGERS.has(t))) return triggers.length === 1 ? triggers[0] : [...triggers];
  const settings: Record<Trigger, Record<string, unknown>> = {
    pull_request: {},
    push: {},
    workflow_dispatch: { inputs: { input: parts.input } },
    workflow_call: { inputs: { input: parts.input }, ...(parts.callSecrets && { secrets: parts.callSecrets }), outputs: parts.callOutputs },
  };
  return Object.fromEntries(triggers.map((t) => [t, settings[t]]));
}

/** How the jobs get the input, as workflow variables: from `inputs` when an event gives one, else (or for the events that give none) the pipeline's default. */
export function inputVariables(triggers: readonly Trigger[], defaultInput: string): Record<string, string> {
  const given = triggers.filter((t) => INPUT_TRIGGERS.has(t)).length;
  // Through the environment, never spliced into a script.
  if (given === 0) return { WAVE_INPUT: unevaluated(defaultInput) };
  if (given === triggers.length) return { WAVE_INPUT: '${{ inputs.input }}' };
  return { WAVE_INPUT: '${{ inputs.input }}', WAVE_DEFAULT_INPUT: unevaluated(defaultInput) };
}

/** The shell word `wave` gets as its input: `$WAVE_INPUT`, or the default when the event that started the run gave none. */
export function inputWord(triggers: readonly Trigger[]): string {
  return 'WAVE_DEFAULT_INPUT' in inputVariables(triggers, '') ? '"${WAVE_INPUT:-$WAVE_DEFAULT_INPUT}"' : '"$WAVE_INPUT"';
}
