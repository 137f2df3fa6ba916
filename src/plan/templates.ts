/** One `{{ name }}` reference in a template, with its offset for error positions. */
export interface TemplateReference {
  name: string;
  offset: number;
  /** The reference as written, braces included. */
  text: string;
}

const REFERENCE = /\{\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*\}\}/g;

/** Every `{{ name }}` in a template, in order. */
export function templateReferences(template: string): TemplateReference[] {
  return [...template.matchAll(REFERENCE)].map((m) => ({ name: m[1]!, offset: m.index, text: m[0] }));
}

/**
 * Replaces each reference once with `insert(value, name, offset)` (the value itself by default; offset is the
 * reference's in the template); inserted text is never scanned again, so a value cannot inject references.
 */
export function renderTemplate(
  template: string,
  lookup: (name: string) => string | undefined,
  insert: (value: string, name: string, offset: number) => string = (value) => value,
): string {
  return template.replace(REFERENCE, (whole, name: string, offset: number) => {
    const value = lookup(name);
    return value === undefined ? whole : insert(value, name, offset);
  });
}

/** 1-based line and column of an offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
