import { z } from 'zod';
import { Duration } from './common-schema.js';

/** The target of a gate choice that fails the run instead of going on. */
export const FAIL_TARGET = '_fail';

export const GateChoiceSchema = z.strictObject({
  label: z.string().describe('What the person reads; `{{ gate.<step>.choice }}` is this label.'),
  key: z.string().describe('What `wave approve --choice` takes; unique in the gate.'),
  target: z.string().optional().describe('The step the run goes on with (a later step of the pipeline), or `_fail` to fail the run.'),
});

/** A step's `gate`: the run waits here until the gate is resolved (Wave's gates). */
export const GateSchema = z
  .strictObject({
    type: z
      .enum(['approval', 'timer', 'pr_merge', 'ci_pass'])
      .describe('approval: a person (or `auto`) decides; timer: waits `timeout`; pr_merge and ci_pass (poll the forge) are refused by name.'),
    auto: z.boolean().optional().describe('approval: resolve at once with the `default` choice (else the first; approve when there are none).'),
    timeout: Duration.optional().describe('timer: how long it waits; approval: how long it waits for a person before taking `default` (no default: the step fails).'),
    message: z.string().optional().describe('What the waiting gate says.'),
    prompt: z.string().optional().describe('approval: the question put to the person.'),
    choices: z.array(GateChoiceSchema).optional().describe('approval: the answers a person picks from.'),
    default: z.string().optional().describe('approval: the key of the choice `auto`, `--auto-approve` and the timeout take.'),
    freeform: z.boolean().optional().describe('approval: the person may add text (`wave approve --text`), kept with the decision; without it the gate takes none.'),
  })
  .describe('The run waits at this step until the gate is resolved.');

export type Gate = z.infer<typeof GateSchema>;
