import { z } from 'zod';
import { StringList } from './common-schema.js';

/** Wave's SkillConfig: how a skill is checked, installed (in the sandbox, after an opt-in) and set up in each new workspace. */
export const RequiredSkillSchema = z
  .strictObject({
    check: z
      .string()
      .optional()
      .describe('A shell command that exits 0 when the skill is installed; run on the host in the project folder before any step. Without it the skill counts as missing.'),
    install: z
      .string()
      .optional()
      .describe(
        'A shell command that installs the skill when `check` fails: run only with `wave run --install-skills` or runtime.skills.allow_install, inside the sandbox with the egress allowlist every step starts with, its HOME kept in .wave/skills/<name>/.',
      ),
    init: z
      .string()
      .optional()
      .describe("A shell command run in each new workspace of the pipeline's steps before their first attempt, inside the step's sandbox; the same opt-in as `install`."),
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
