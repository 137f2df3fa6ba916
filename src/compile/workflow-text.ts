import { WaveError, type SourceLocation } from '../core/errors/errors.js';

// GitHub's documented way to write a literal `${{`: an expression whose value is that string.
const LITERAL_OPEN = "${{ '${{' }}";

/** `text` for a workflow place where GitHub evaluates `${{ … }}` (run, env, with, names): each `${{` becomes an expression yielding it, so GitHub reads the text as written. */
export function unevaluated(text: string): string {
  return text.replaceAll('${{', LITERAL_OPEN);
}

/** `text` for one line of a YAML comment: line breaks and other control characters written as `\u{…}`, so the text cannot end the comment. */
export function commentText(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Refuses `${{` in a value bound for a place where GitHub allows no expression at all (the workflow's name, a workflow_dispatch default): there even an escaped one makes GitHub reject the workflow. */
export function refuseExpressionOpen(value: string, what: string, location: SourceLocation): void {
  if (!value.includes('${{')) return;
  throw new WaveError('wrong_type', `${what} contains \`\${{\`, which GitHub would read as an expression where the workflow allows none`, {
    location,
    hint: `Break up the expression opener in ${what} (a space between the dollar sign and the braces, as in $ {{), then compile again.`,
  });
}
