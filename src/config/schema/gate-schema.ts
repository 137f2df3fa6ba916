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
      .describe(
        "approval: a person (or `auto`) decides; timer: waits `timeout`; pr_merge: waits for a GitHub pull request to merge; ci_pass: for a branch's latest GitHub Actions run to pass.",
      ),
    auto: z.boolean().optional().describe('approval: resolve at once with the `default` choice (else the first; approve when there are none).'),
    timeout: Duration.optional().describe(
      'timer: how long it waits; approval: how long it waits for a person before taking `default` (no default: the step fails); pr_merge, ci_pass: how long it polls (default runtime.timeouts.gate_poll_timeout_minutes, else 60m).',
    ),
    message: z.string().optional().describe('What the waiting gate says.'),
    prompt: z.string().optional().describe('approval: the question put to the person.'),
    choices: z.array(GateChoiceSchema).optional().describe('approval: the answers a person picks from.'),
    default: z.string().optional().describe('approval: the key of the choice `auto`, `--auto-approve` and the timeout take.'),
    environment: z
      .string()
      .min(1)
      .max(255)
      .regex(/^(?!.*\$\{\{)[^\r\n]+$/, 'a GitHub Environment name: one line of up to 255 characters, without `${{`')
      .optional()
      .describe(
        'approval: the GitHub Environment whose required reviewers approve this gate in the workflow of `wave compile` (default `wave-<pipeline>-<step>`); `wave run` does not read it.',
      ),
    freeform: z.boolean().optional().describe('approval: the person may add text (`wave approve --text`), kept with the decision; without it the gate takes none.'),
    pr_number: z.number().int().positive().optional().describe('pr_merge: the pull request it waits for (required).'),
    repo: z
      .string()
      .regex(/^[^/\s]+\/[^/\s]+$/, 'owner/repo')
      .optional()
      .describe("pr_merge, ci_pass: the GitHub repository, `owner/repo`; default the project's, from its git remote."),
    branch: z.string().optional().describe("ci_pass: the branch whose latest run it waits for; default the project's checked-out branch."),
    interval: Duration.optional().describe('pr_merge, ci_pass: time between two looks; default runtime.timeouts.gate_poll_interval_seconds, else 30s.'),
  })
  .describe('The run waits at this step until the gate is resolved.');

export type Gate = z.infer<typeof GateSchema>;
