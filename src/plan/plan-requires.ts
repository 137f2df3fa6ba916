import { join } from 'node:path';
import { fillProjectPlaceholders } from '../config/load/project-placeholders.js';
import type { Requires } from '../config/schema/requires-schema.js';
import type { SourceLocation } from '../core/errors/errors.js';

/** A program the pipeline requires on PATH, and where it is named. */
export interface PlannedRequiredTool {
  readonly name: string;
  readonly location: SourceLocation;
}

/** A skill the pipeline requires: how to check it is installed, and the Claude command files it brings. */
export interface PlannedRequiredSkill {
  readonly name: string;
  /** A shell command that exits 0 when the skill is installed; without one the skill counts as missing (as in Wave). */
  readonly check?: string;
  /** A shell command that installs it when `check` fails: run in the sandbox, only after the opt-in. */
  readonly install?: string;
  /** A shell command run in each new workspace of the steps, in the step's sandbox, only after the opt-in. */
  readonly init?: string;
  readonly optional: boolean;
  /** Relative to the project folder: Claude steps get the matching `.md` files in `.claude/commands/`. */
  readonly commandsGlob: string;
  readonly location: SourceLocation;
}

/** The pipeline's `requires`: checked before any step runs (engine/steps/requirements.ts) and by `wave doctor`. */
export interface PlannedRequires {
  readonly tools: readonly PlannedRequiredTool[];
  readonly skills: readonly PlannedRequiredSkill[];
  /** The manifest's runtime.skills.allow_install: install and init commands may run (as with --install-skills). */
  readonly allowInstall: boolean;
}

/** `requires` with `{{ project.<key> }}` filled in tool names (an unset key drops the tool, as Wave drops empty names), sorted skills. */
export function planRequires(
  requires: Requires | undefined,
  locate: (path: readonly PropertyKey[]) => SourceLocation,
  project: Readonly<Record<string, string>>,
  allowInstall = false,
): PlannedRequires {
  const tools = new Map<string, PlannedRequiredTool>();
  (requires?.tools ?? []).forEach((tool, i) => {
    const filled = fillProjectPlaceholders(tool, project);
    if ('text' in filled && filled.text !== '' && !tools.has(filled.text)) tools.set(filled.text, { name: filled.text, location: locate(['requires', 'tools', i]) });
  });
  const skills = Object.entries(requires?.skills ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, config]) => ({
      name,
      ...(config.check !== undefined ? { check: config.check } : {}),
      ...(config.install !== undefined ? { install: config.install } : {}),
      ...(config.init !== undefined ? { init: config.init } : {}),
      optional: config.optional ?? false,
      // Wave's default: the skill's own commands in the project's Claude commands folder.
      commandsGlob: config.commands_glob ?? join('.claude', 'commands', `${name}.*.md`),
      location: locate(['requires', 'skills', name]),
    }));
  return { tools: [...tools.values()], skills, allowInstall };
}
