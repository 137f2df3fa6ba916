import { posix } from 'node:path';
import { segmentPattern } from '../core/glob-segment.js';
import type { PlannedContract } from './types.js';

/** Wave's default test files: Go's. */
export const DEFAULT_TEST_FILE_PATTERN = ['*_test.go'];
/** Wave's default test declaration: a Go test, example, benchmark or fuzz function. */
export const DEFAULT_TEST_FUNC_PATTERN = '(?m)^[ \\t]*func[ \\t]+(Test|Example|Benchmark|Fuzz)[A-Za-z0-9_]*\\b';

/** Go's inline flags a JavaScript regular expression has as flags: case-insensitive, multi-line, dot matches newline. */
const INLINE_FLAGS = /^\(\?([ims]+)\)/;

/** What a test-declaration contract counts: in which files, and the regular expression of one declaration. */
export interface TestDeclarations {
  files: string[];
  /** The pattern as written (Go syntax), for messages. */
  pattern: string;
  regex: RegExp;
}

/** A Go regular expression as JavaScript's: a leading `(?flags)` group becomes flags; throws when it does not compile. */
export function goRegex(pattern: string): RegExp {
  const inline = INLINE_FLAGS.exec(pattern);
  return new RegExp(inline ? pattern.slice(inline[0].length) : pattern, inline?.[1] ?? '');
}

/** The contract's test files and declaration pattern (the plan has filled them from the manifest's `project` when unset), else Wave's Go defaults. */
export function testDeclarations(contract: PlannedContract): TestDeclarations {
  const files = contract.test_file_pattern?.length ? [...contract.test_file_pattern] : DEFAULT_TEST_FILE_PATTERN;
  const pattern = contract.test_func_pattern || DEFAULT_TEST_FUNC_PATTERN;
  return { files, pattern, regex: goRegex(pattern) };
}

/** Whether a file path matches one of the globs, as a whole or by its base name (Wave's matchesAnyGlob). */
export function matchesAnyGlob(path: string, globs: readonly string[]): boolean {
  const base = posix.basename(path);
  return globs.some((glob) => {
    const pattern = segmentPattern(glob);
    return pattern.test(path) || pattern.test(base);
  });
}

/** How many declarations a file's text holds. */
export function countDeclarations(text: string, regex: RegExp): number {
  const global = new RegExp(regex.source, `${regex.flags.replace('g', '')}g`);
  return [...text.matchAll(global)].length;
}
