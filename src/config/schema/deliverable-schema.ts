import { z } from 'zod';
import { OUTCOME_TYPES } from '../../core/deliverables.js';
import { IoTypeSchema } from './io-types.js';

/** Wave's PipelineOutput (internal/pipeline/types.go): a named output taken from a step's artifact after the run. */
export const PipelineOutputSchema = z
  .strictObject({
    step: z.string().describe('The step whose artifact it is.'),
    artifact: z.string().describe("The name of one of the step's output_artifacts."),
    field: z.string().optional().describe("A dot path into the artifact's JSON (`pr_url`, `items[0].url`): the output is that value instead of the whole artifact."),
    type: IoTypeSchema.optional().describe("Its I/O type: string (default) or a name of Wave's shared registry (pr_ref, findings_report, …); recorded with the output."),
  })
  .describe("A named output of the pipeline, taken from a step's artifact: recorded in run.json, shown by `wave status`, set as the GitHub Action's outputs.");

/** Wave's OutcomeDef: a link or file a step produced, taken from one of its files once it succeeds. */
export const OutcomeSchema = z
  .strictObject({
    type: z.enum(OUTCOME_TYPES).describe('pr, issue, url, deployment (a link read at json_path), file or artifact (the file itself).'),
    extract_from: z.string().describe("The file it is taken from, relative to the step's workspace."),
    json_path: z
      .string()
      .optional()
      .describe('The dot path of the link in that JSON file (`.pr_url`, `.items[0].url`, `.items[*].url` for each item); required for pr, issue, url and deployment.'),
    json_path_label: z.string().optional().describe("With a [*] json_path: a [*] path of each item's name, added to its label."),
    label: z.string().optional().describe('What the summary calls it (default: its type).'),
  })
  .describe("A structured outcome of the step (a PR, an issue, a URL, a deployment, a file), shown in the run's summary.");

export type PipelineOutputDef = z.infer<typeof PipelineOutputSchema>;
export type OutcomeDef = z.infer<typeof OutcomeSchema>;
