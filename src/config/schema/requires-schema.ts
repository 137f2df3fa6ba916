import { z } from 'zod';
import { StringList } from './common-schema.js';

/** Wave's SkillConfig without `install` and `init`, which run a skill's installer and are refused by name (unsupported-features.ts). */
export const RequiredSkillSchema = z
  .strictObject({
    check: z
      .string()
      .optional()
      .describe('A shell command that exits 0 when the skill is installed; run on the host in the project folder before any step. Without it the skill counts as missing.'),
    optional: z.boolean().optional().describe('true: a missing skill is a warning and the run goes on; false (default): the run does not start.'),
    commands_glob: z
      .string()
      .optional()
      .describe(
        "Claude Code steps: files matching this glob (relative to the project folder) are copied into the workspace's .claude/commands/; default .claude/commands/<name>.*.md.",
      ),
  })
  .describe('A skill the pipeline needs installed, checked before any step runs.');

/** Wave's `requires`: what must be on this machine before any step of the pipeline runs. */
export const RequiresSchema = z
  .strictObject({
    tools: StringList.optional().describe('Programs that must be on PATH before any step runs ({{ project.<key> }} allowed).'),
    skills: z.record(z.string(), RequiredSkillSchema).optional().describe('Skills that must be installed, by name, each with the command that checks it.'),
  })
  .describe('Tools and skills checked before any step runs (and by `wave doctor`).');

export type Requires = z.infer<typeof RequiresSchema>;
export type RequiredSkill = z.infer<typeof RequiredSkillSchema>;
