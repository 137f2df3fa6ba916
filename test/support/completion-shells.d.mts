/** Where Debian's bash-completion package puts the functions an interactive shell loads. */
export declare const BASH_COMPLETION: string;
/** What a shell run ended with. */
interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}
/** Where the line is typed, and a PATH holding `wave`. */
interface ShellPlace {
  cwd: string;
  path: string;
}
/** Sources the bash script (twice: a re-read ~/.bashrc) and calls what `complete -p wave` registered for Tab at the end of `line`: COMPREPLY. */
export declare function bashReplies(line: string, place: ShellPlace & { withBashCompletion: boolean }): Promise<ShellResult & { replies: string[] }>;
/** Each completion bash inserted, read back as bash reads the line when Enter is pressed (eval, in `cwd`): the words it makes. */
export declare function readByBash(replies: readonly string[], cwd: string): Promise<string[][]>;
/** The words of the line after an interactive zsh completed `line` in `cwd`. */
export declare function zshWords(line: string, place: ShellPlace): Promise<ShellResult & { words: string[] }>;
/** The candidates fish offers for `line` (`complete -C`, the script sourced), without their descriptions. */
export declare function fishCandidates(line: string, place: ShellPlace): Promise<ShellResult & { candidates: string[] }>;
