import { parseToolRule } from '../../core/tool-rules.js';
import { WaveError } from '../../core/errors/errors.js';
import { adapterTypeOf } from '../schema/adapter-type.js';
import type { Locator } from '../load/locator.js';
import { isRecord, type Path } from '../load/value-path.js';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Each rule with an argument pattern in a permissions block, at its line: Codex can switch a tool only as a whole. */
function patternErrors(permissions: unknown, path: Path, who: string, adapter: string, locator: Locator): WaveError[] {
  if (!isRecord(permissions)) return [];
  return (['allowed_tools', 'deny'] as const).flatMap((list) =>
    strings(permissions[list]).flatMap((rule, i) =>
      parseToolRule(rule).argument !== undefined
        ? [
            new WaveError('not_supported', `${who} has the rule \`${rule}\`, which codex adapter \`${adapter}\` cannot enforce: Codex switches a tool on or off as a whole`, {
              location: locator.locate([...path, list, i]),
              hint: 'Name the whole tool (Bash, Write, WebSearch), or run the persona on a claude, opencode or gemini adapter, which enforce argument patterns.',
            }),
          ]
        : [],
    ),
  );
}

/** Permission rules on codex personas and adapters that Codex could only widen or ignore: refused by name. */
export function codexPermissionErrors(root: unknown, locator: Locator): WaveError[] {
  if (!isRecord(root) || !isRecord(root.adapters)) return [];
  const adapters = root.adapters;
  const isCodex = (name: unknown): name is string => typeof name === 'string' && isRecord(adapters[name]) && adapterTypeOf(name, adapters[name]) === 'codex';
  const errors: WaveError[] = [];
  for (const [name, adapter] of Object.entries(adapters)) {
    if (isCodex(name) && isRecord(adapter))
      errors.push(...patternErrors(adapter.default_permissions, ['adapters', name, 'default_permissions'], `adapter \`${name}\``, name, locator));
  }
  for (const [name, persona] of Object.entries(isRecord(root.personas) ? root.personas : {})) {
    if (isRecord(persona) && isCodex(persona.adapter))
      errors.push(...patternErrors(persona.permissions, ['personas', name, 'permissions'], `persona \`${name}\``, persona.adapter, locator));
  }
  return errors;
}
