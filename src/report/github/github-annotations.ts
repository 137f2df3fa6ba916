import * as core from '@actions/core';

/** One GitHub annotation, before it is printed. */
export interface Annotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
  /** Relative to the repository root, so GitHub links it to the file. */
  file?: string;
  line?: number;
  column?: number;
}

/** GitHub shows at most this many annotations of each level per job step. */
export const ANNOTATION_CAP = 10;

/** The annotations GitHub will show: past the cap of a level, the last slot summarises the rest of that level. */
export function capAnnotations(annotations: readonly Annotation[], cap = ANNOTATION_CAP): Annotation[] {
  return (['error', 'warning'] as const).flatMap((level) => {
    const ofLevel = annotations.filter((a) => a.level === level);
    if (ofLevel.length <= cap) return ofLevel;
    const rest = ofLevel.slice(cap - 1);
    const summary: Annotation = {
      level,
      title: `${rest.length} more ${level}s`,
      message: rest.map((a) => `${a.title}${a.file ? ` (${a.file}${a.line ? `:${a.line}` : ''})` : ''}: ${a.message}`).join('\n'),
    };
    return [...ofLevel.slice(0, cap - 1), summary];
  });
}

/** Prints annotations through @actions/core, capped per level; returns how many errors it printed. */
export function printAnnotations(annotations: readonly Annotation[]): number {
  let errors = 0;
  for (const a of capAnnotations(annotations)) {
    const properties: core.AnnotationProperties = { title: a.title, file: a.file, startLine: a.line, startColumn: a.column };
    if (a.level === 'error') {
      core.error(a.message, properties);
      errors += 1;
    } else core.warning(a.message, properties);
  }
  return errors;
}
