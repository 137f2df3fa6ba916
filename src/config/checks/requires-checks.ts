import { WaveError } from '../../core/errors/errors.js';
import type { Locator } from '../load/locator.js';
import { placeholderError } from './pipeline-skill-checks.js';
import { fillProjectPlaceholders } from '../load/project-placeholders.js';
import { isSkillName } from './skill-refs.js';
import type { ManifestView } from './step-checks.js';
import { isRecord } from '../load/value-path.js';

/** A program name: no whitespace and nothing a shell would read specially, so what is looked up on PATH is what is named. */
const TOOL_NAME = /^[\w@%+=:,./-]+$/;

/** `requires.tools` names programs; each `requires.skills` entry names a skill and says how to check it is installed. */
export function checkRequires(root: unknown, view: ManifestView, locator: Locator): WaveError[] {
  if (!isRecord(root) || !isRecord(root.requires)) return [];
  const { tools, skills } = root.requires;
  const errors: WaveError[] = [];
  if (Array.isArray(tools)) {
    tools.forEach((tool, i) => {
      if (typeof tool !== 'string') return;
      const location = locator.locate(['requires', 'tools', i]);
      const filled = fillProjectPlaceholders(tool, view.project ?? {});
      if ('unknown' in filled) errors.push(placeholderError(filled.unknown, '`requires.tools` names tool', location));
      else if (filled.text !== '' && !TOOL_NAME.test(filled.text)) {
        errors.push(
          new WaveError('wrong_type', `\`requires.tools\` names \`${filled.text}\`, which is not a program name`, {
            location,
            hint: 'Name the program as it is found on PATH, such as `gh` or `jq`, without arguments.',
          }),
        );
      }
    });
  }
  if (isRecord(skills)) {
    for (const [name, config] of Object.entries(skills)) {
      const at = ['requires', 'skills', name];
      if (!isSkillName(name)) {
        errors.push(
          new WaveError('wrong_type', `\`requires.skills\` names \`${name}\`, which is not a plain skill name`, {
            location: locator.locateKey(at),
            hint: 'Name the skill without slashes, such as `speckit`.',
          }),
        );
      }
      if (isRecord(config) && typeof config.commands_glob === 'string' && !isProjectPattern(config.commands_glob)) {
        errors.push(
          new WaveError('wrong_type', `\`requires.skills.${name}.commands_glob\` must be a pattern inside the project folder`, {
            location: locator.locate([...at, 'commands_glob']),
            hint: 'Write a pattern relative to the project folder, without `..` or `**` (one `*` matches within one folder), such as `.claude/commands/speckit.*.md`.',
          }),
        );
      }
      // Wave counts a skill without a check command as missing, so a required one would stop every run.
      if (isRecord(config) && config.check === undefined && config.optional !== true) {
        errors.push(
          new WaveError('missing_field', `\`requires.skills.${name}\` has no \`check\`, so it could never be found installed`, {
            location: locator.locateKey(at),
            hint: 'Add `check:` with a command that exits 0 when the skill is installed (e.g. `specify check`), or `optional: true`.',
          }),
        );
      }
    }
  }
  return errors;
}

/** A glob relative to the project folder that cannot climb out of it. */
function isProjectPattern(pattern: string): boolean {
  return pattern !== '' && !pattern.startsWith('/') && !pattern.split('/').includes('..') && !pattern.includes('**');
}
