import { Argument, Option, type Command } from 'commander';

/** One command as completion sees it: its name, words, arguments, options and subcommands; plain JSON. */
export interface CommandNode {
  name: string;
  description: string;
  arguments: Array<{ usage: string; description: string; choices?: string[] }>;
  options: Array<{ flags: string; description: string; choices?: string[]; hidden?: true }>;
  commands: CommandNode[];
}

/** The commands of a program as plain JSON: the build writes it into the bundle that answers completion requests. */
export function commandTree(program: Command): CommandNode[] {
  return program.commands.map(nodeOf);
}

function nodeOf(command: Command): CommandNode {
  return {
    name: command.name(),
    description: command.description(),
    arguments: command.registeredArguments.map((argument) => {
      const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
      return {
        usage: argument.required ? `<${name}>` : `[${name}]`,
        description: argument.description,
        ...(argument.argChoices ? { choices: [...argument.argChoices] } : {}),
      };
    }),
    options: command.options.map((option) => ({
      flags: option.flags,
      description: option.description,
      ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
      ...(option.hidden ? { hidden: true as const } : {}),
    })),
    commands: command.commands.map(nodeOf),
  };
}

/** Adds the commands of a tree to a program: their names, arguments and options, with no actions of their own. */
export function addCommandTree(program: Command, tree: readonly CommandNode[]): void {
  for (const node of tree) {
    const command = program.command(node.name).description(node.description);
    for (const argument of node.arguments) {
      const added = new Argument(argument.usage, argument.description);
      command.addArgument(argument.choices ? added.choices(argument.choices) : added);
    }
    for (const option of node.options) {
      const added = new Option(option.flags, option.description).hideHelp(option.hidden === true);
      command.addOption(option.choices ? added.choices(option.choices) : added);
    }
    addCommandTree(command, node.commands);
  }
}
