import type { Command } from 'commander';

/** What the words of a completion request say, read with the command's own option definitions. */
export interface CompletionLine {
  /** The positional arguments typed after the command's name, before the word being completed. */
  positionals: string[];
  /** The values given to the command's options, by long name without dashes (`manifest`, `from-step`). */
  options: Record<string, string>;
  /** The word being completed (empty after a space); after `--flag=` only what follows the `=`. */
  current: string;
}

/** Reads a completion request's words (`logs <run> --step ''`): the last word is the one being completed. */
export function readCompletionLine(program: Command, words: readonly string[]): CompletionLine {
  const typed = words.slice(0, -1);
  const last = words.at(-1) ?? '';
  const current = last.startsWith('-') && last.includes('=') ? last.slice(last.indexOf('=') + 1) : last;
  const line: CompletionLine = { positionals: [], options: {}, current };
  const at = typed.findIndex((word) => !word.startsWith('-'));
  const command = at === -1 ? undefined : program.commands.find((candidate) => candidate.name() === typed[at]);
  if (!command) return line;
  for (let i = at + 1; i < typed.length; i++) {
    const word = typed[i]!;
    if (word === '--') {
      line.positionals.push(...typed.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      line.positionals.push(word);
      continue;
    }
    const [flag, inline] = word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const option = command.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (!option?.long || !(option.required || option.optional)) continue;
    // A flag that takes a value swallows the next word (an optional one, unless it is a flag), as commander does.
    const swallows = inline === undefined && !(option.optional && typed[i + 1]?.startsWith('-'));
    const value = swallows ? typed[++i] : inline;
    if (value !== undefined) line.options[option.long.slice(2)] = value;
  }
  return line;
}
