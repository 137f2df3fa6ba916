import { WaveError } from '../../core/errors/errors.js';
import { adapterErrors } from './adapter-checks.js';
import { pluginModuleErrors } from './plugin-module-checks.js';
import { artifactDirErrors } from './artifact-dir-check.js';
import { costErrors } from './cost-checks.js';
import { parseEgressPattern } from '../schema/egress-pattern.js';
import { missingFile } from '../load/file-refs.js';
import { skillErrors, skillRefErrors } from './skill-refs.js';
import { temperatureErrors } from './temperature-check.js';
import { modelTierErrors } from './model-tier-checks.js';
import { codexPermissionErrors } from './codex-permission-checks.js';
import type { Locator } from '../load/locator.js';
import { didYouMean } from './suggest.js';
import { isBuiltinAdapter } from '../schema/wave-builtin-adapters.js';
import { isRecord, type Path } from '../load/value-path.js';

/**
 * Cross-references inside a manifest, checked on the raw value so they are found even when the
 * schema check failed elsewhere: adapters named by personas, fallbacks and extract; prompt files; egress allowlists;
 * adapter settings their CLI cannot honour.
 */
export function checkManifestReferences(root: unknown, manifestDir: string, locator: Locator): WaveError[] {
  if (!isRecord(root)) return [];
  const adapters = isRecord(root.adapters) ? Object.keys(root.adapters) : [];
  const errors: WaveError[] = [...adapterErrors(root.adapters, locator), ...pluginModuleErrors(root.adapters, manifestDir, locator)];
  const adapterRef = (value: unknown, path: Path, who: string) => {
    if (typeof value !== 'string' || adapters.includes(value) || isBuiltinAdapter(value)) return;
    errors.push(
      new WaveError('unknown_adapter', `${who} names adapter \`${value}\`, which \`adapters\` does not declare`, {
        location: locator.locate(path),
        hint: didYouMean(value, adapters, 'Declared adapters'),
      }),
    );
  };

  if (isRecord(root.personas)) {
    for (const [name, persona] of Object.entries(root.personas)) {
      if (!isRecord(persona)) continue;
      const at = ['personas', name];
      adapterRef(persona.adapter, [...at, 'adapter'], `persona \`${name}\``);
      if (Array.isArray(persona.fallbacks)) {
        persona.fallbacks.forEach((f, i) => adapterRef(f, [...at, 'fallbacks', i], `persona \`${name}\` fallback`));
      }
      const missing = missingFile(persona.system_prompt_file, manifestDir, `persona \`${name}\` names system_prompt_file`, locator.locate([...at, 'system_prompt_file']));
      if (missing) errors.push(missing);
      if (Array.isArray(persona.skills)) persona.skills.forEach((skill, i) => errors.push(...skillErrors(skill, name, manifestDir, locator.locate([...at, 'skills', i]))));
      if (isRecord(persona.sandbox)) errors.push(...allowlistErrors(persona.sandbox.allowed_domains, [...at, 'sandbox', 'allowed_domains'], locator));
    }
  }
  // Wave's global skills: every agent step gets them (skill.ResolveSkills).
  if (Array.isArray(root.skills)) root.skills.forEach((skill, i) => errors.push(...skillRefErrors(skill, 'the manifest', manifestDir, locator.locate(['skills', i]))));
  const runtime = root.runtime;
  if (isRecord(runtime) && isRecord(runtime.sandbox))
    errors.push(...allowlistErrors(runtime.sandbox.default_allowed_domains, ['runtime', 'sandbox', 'default_allowed_domains'], locator));
  if (isRecord(runtime) && isRecord(runtime.fallbacks)) {
    for (const [from, chain] of Object.entries(runtime.fallbacks)) {
      const at = ['runtime', 'fallbacks', from];
      if (!adapters.includes(from)) {
        errors.push(
          new WaveError('unknown_adapter', `\`runtime.fallbacks\` names adapter \`${from}\`, which \`adapters\` does not declare`, {
            location: locator.locateKey(at),
            hint: didYouMean(from, adapters, 'Declared adapters'),
          }),
        );
      }
      if (Array.isArray(chain)) chain.forEach((to, i) => adapterRef(to, [...at, i], `the fallback chain of \`${from}\``));
    }
  }
  if (isRecord(root.extract)) adapterRef(root.extract.adapter, ['extract', 'adapter'], '`extract`');
  errors.push(...temperatureErrors(root, manifestDir, locator));
  errors.push(...modelTierErrors(root, locator));
  errors.push(...codexPermissionErrors(root, locator));
  errors.push(...artifactDirErrors(root, locator));
  errors.push(...costErrors(root, locator));
  return errors;
}

/** Allowlist entries that are not host patterns (a URL, a path, a bad port), each at its line. */
function allowlistErrors(list: unknown, path: Path, locator: Locator): WaveError[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i) => {
    if (typeof entry !== 'string') return [];
    try {
      parseEgressPattern(entry);
      return [];
    } catch (error) {
      const problem = error as WaveError;
      return [new WaveError('manifest_invalid', problem.message, { hint: problem.hint, location: locator.locate([...path, i]) })];
    }
  });
}
