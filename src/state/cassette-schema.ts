import { z } from 'zod';
import { RUN_ID_PATTERN } from './run-id.js';

/** The cassette format version this Wave writes and reads. */
export const CASSETTE_VERSION = 1;

/** The file at the top of a cassette that says what it holds. */
export const CASSETTE_FILE = 'cassette.json';

/** The folder of a cassette that holds the recorded run folders, one `runs/<id>/` each. */
export const CASSETTE_RUNS_DIR = 'runs';

const RunId = z.string().regex(RUN_ID_PATTERN, 'a run id: letters, digits, `.`, `_` and `-`, not first a dot or a dash');

// A path inside the project, `/`-separated: never absolute, no empty or `..` part, no backslash.
const ProjectPath = z.string().regex(/^(?!\.\.(?:\/|$))[^/\\]+(?:\/(?!\.\.(?:\/|$))[^/\\]+)*$/, 'a relative path inside the project, `/`-separated, without `..`');

/** cassette.json: a recorded run and the child runs it started, packed to be replayed in another folder or machine. */
export const CassetteSchema = z
  .strictObject({
    kind: z.literal('WaveCassette').describe('Always `WaveCassette`.'),
    version: z.literal(CASSETTE_VERSION).describe('The cassette format version; a reader refuses a version it does not know.'),
    run: RunId.describe('The id of the recorded run the cassette replays; its folder is `runs/<run>/`.'),
    pipeline: z.string().min(1).describe("The recorded run's pipeline name (its metadata.name)."),
    pipelineFile: ProjectPath.optional().describe(
      "The recorded run's pipeline file, relative to its project's folder (the manifest's), when it was inside it: a replay looks for it there first, then for the pipeline by name.",
    ),
    runs: z.array(RunId).min(1).describe('Every run folder the cassette holds under `runs/`: the recorded run first, then the child runs it started, theirs included.'),
    createdAt: z.iso.datetime().describe('When the cassette was exported (ISO 8601, UTC).'),
    wave: z.string().min(1).describe('The version of Wave that exported it.'),
  })
  .refine((cassette) => cassette.runs[0] === cassette.run, { message: '`runs` starts with `run`', path: ['runs'] })
  .describe('A Wave cassette (cassette.json at the top of a `wave replay export` tar.gz): a recorded run, replayed with `wave replay <cassette>`.');

/** A cassette's cassette.json. */
export type Cassette = z.infer<typeof CassetteSchema>;
