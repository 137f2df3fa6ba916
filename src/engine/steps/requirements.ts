import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { PlannedRequires } from '../../plan/plan-requires.js';
import { WaveError, type SourceLocation } from '../../core/errors/errors.js';

/** How long a skill's `check` command may take before the skill counts as missing. */
export const SKILL_CHECK_TIMEOUT_MS = 60_000;

/** What was found about one requirement of a pipeline. */
export interface RequirementStatus {
  kind: 'tool' | 'skill';
  name: string;
  ok: boolean;
  /** A missing optional skill is a warning; anything else missing stops the run. */
  optional: boolean;
  /** Where the tool was found, or why it counts as missing. */
  detail: string;
  /** What to install, when it is missing. */
  hint?: string;
  /** A skill found installed that the run cannot set up (its init needs the opt-in or a sandbox): skipped rather than missing. */
  idle?: boolean;
  location: SourceLocation;
}

/** The first executable `name` along PATH, as Wave's exec.LookPath finds it. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next folder.
    }
  }
  return undefined;
}

/** The last non-empty line of a command's output, cut short, to say why a check failed. */
function lastLine(output: string): string {
  const line = output.trim().split('\n').at(-1)?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Runs a skill's check in the project folder: installed when it exits 0 within the time limit. */
async function checkSkill(check: string, projectRoot: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; detail: string }> {
  // execa loads only for a skill check: every run reaches this module.
  const { execa } = await import('execa');
  const result = await execa('/bin/sh', ['-c', check], { cwd: projectRoot, env, extendEnv: false, stdin: 'ignore', all: true, reject: false, timeout: SKILL_CHECK_TIMEOUT_MS });
  if (result.exitCode === 0) return { ok: true, detail: `\`${check}\` succeeded` };
  const why = result.timedOut ? `did not finish within ${SKILL_CHECK_TIMEOUT_MS / 1000} s` : result.exitCode !== undefined ? `exited ${result.exitCode}` : 'could not run';
  const output = lastLine(String(result.all ?? ''));
  return { ok: false, detail: `\`${check}\` ${why}${output ? `: ${output}` : ''}` };
}

/**
 * Checks a pipeline's `requires` as Wave's preflight does: each tool must be on PATH, each skill's `check` command
 * must exit 0 (run on the host, in the project folder). Wave would then run a missing skill's `install`; this
 * version refuses that key, so the hint says what to install by hand.
 */
export async function checkRequirements(requires: PlannedRequires, projectRoot: string, env: NodeJS.ProcessEnv): Promise<RequirementStatus[]> {
  const statuses: RequirementStatus[] = requires.tools.map((tool) => {
    const found = findOnPath(tool.name, env.PATH);
    return {
      kind: 'tool',
      name: tool.name,
      ok: found !== undefined,
      optional: false,
      detail: found ?? 'not found on PATH',
      ...(found ? {} : { hint: `Install \`${tool.name}\`, or add the folder that holds it to PATH; \`wave doctor\` lists what each pipeline requires.` }),
      location: tool.location,
    };
  });
  for (const skill of requires.skills) {
    const found = skill.check === undefined ? { ok: false, detail: 'it has no `check` command, so it cannot be found installed' } : await checkSkill(skill.check, projectRoot, env);
    statuses.push({
      kind: 'skill',
      name: skill.name,
      ok: found.ok,
      optional: skill.optional,
      detail: found.detail,
      ...(found.ok
        ? {}
        : {
            hint: skill.check
              ? `Install the skill \`${skill.name}\` so that \`${skill.check}\` succeeds in ${projectRoot}${skill.install ? ' (or run with --install-skills to have its install run in the sandbox)' : ''}${skill.optional ? '' : ', or mark it `optional: true`'}.`
              : `Add \`check:\` with a command that exits 0 once \`${skill.name}\` is installed.`,
          }),
      location: skill.location,
    });
  }
  return statuses;
}

/** One `requirement_missing` error per missing requirement that is not optional. */
export function missingRequirementErrors(statuses: readonly RequirementStatus[], pipeline: string): WaveError[] {
  return statuses
    .filter((s) => !s.ok && !s.optional)
    .map(
      (s) =>
        new WaveError('requirement_missing', `pipeline \`${pipeline}\` requires ${s.kind} \`${s.name}\`, which is missing: ${s.detail}`, {
          location: s.location,
          ...(s.hint ? { hint: s.hint } : {}),
        }),
    );
}
