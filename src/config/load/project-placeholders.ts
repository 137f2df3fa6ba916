import { isRecord } from './value-path.js';

const REFERENCE = /\{\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*\}\}/g;
const PROJECT_PREFIX = 'project.';

/** The outcome of filling a name's `{{ project.<key> }}` references: the text, or the first reference that is not one. */
export type FilledName = { text: string } | { unknown: string };

/**
 * Fills `{{ project.<key> }}` in a skill or tool name from the manifest's `project` facts. An unset key becomes
 * empty text, as Wave strips unresolved project placeholders (so `"{{ project.skill }}"` names nothing when the
 * manifest sets no `project.skill`); any other variable is reported, as such a name is fixed before the run.
 */
export function fillProjectPlaceholders(text: string, project: Readonly<Record<string, string>>): FilledName {
  let unknown: string | undefined;
  const filled = text.replace(REFERENCE, (whole, name: string) => {
    if (!name.startsWith(PROJECT_PREFIX)) {
      unknown ??= whole;
      return whole;
    }
    return project[name.slice(PROJECT_PREFIX.length)] ?? '';
  });
  return unknown === undefined ? { text: filled.trim() } : { unknown };
}

/** The scalar facts of a raw `project` mapping as text, as templates see them. */
export function projectFacts(raw: unknown): Record<string, string> {
  if (!isRecord(raw)) return {};
  const facts: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') facts[key] = String(value);
  }
  return facts;
}
