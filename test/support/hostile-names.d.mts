/** Pipeline file names GitHub would evaluate (`${{ … }}`), one it would reject (never closed), shell syntax and a line break. */
export declare const HOSTILE_WORKFLOW_FILES: readonly string[];
/** Pipeline names for completion, each starting with its own letter so that typing it completes that one alone. */
export declare const HOSTILE_PIPELINES: readonly string[];
/** A pipeline name with a line break: never offered (typing `d` completes nothing). */
export declare const LINE_BREAK_PIPELINE: string;
/** Lines a user may type before Tab, holding command substitutions a shell runs only if it evaluates the line. */
export declare const HOSTILE_LINES: readonly string[];
/** The files the `touch` of a hostile name or line left in `dir`. */
export declare function planted(dir: string): string[];
