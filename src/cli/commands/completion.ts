import type { Command } from 'commander';
import type { Complete, RootCommand } from '@bomb.sh/tab';
import tab from '@bomb.sh/tab/commander';
import { pipelineCandidates, pipelineStepIds, runCandidates, runStepIds, type Candidate, type CompletionPlace } from '../completion/completion-candidates.js';
import { completionScript } from '../completion/completion-script.js';
import { readCompletionLine, type CompletionLine } from '../completion/completion-line.js';
import { addCommandTree, type CommandNode } from '../completion/command-tree.js';

/** Arguments completed from the project, by the name their command gives them. */
const RUN_ARGUMENTS = new Set(['run']);
const PIPELINE_ARGUMENTS = new Set(['pipeline', 'pipelines']);
/** Options that take a step id, and those that take a comma-separated list of them. */
const STEP_OPTIONS = new Set(['step', 'from-step']);
const STEP_LIST_OPTIONS = new Set(['steps', 'exclude']);

/**
 * `wave completion <shell>` prints the script a shell sources; the script asks `wave complete -- <words>` at each Tab
 * (a hidden command). Commands and flags come from the program itself; pipeline names, run ids and step ids from the
 * project the line is typed in. Must be registered after every other command: it describes them.
 */
export function registerCompletion(program: Command): void {
  const completion = tab(program, { completionCommandName: 'completion' });
  let words: readonly string[] = [];
  program.hook('preAction', (_program, action) => {
    if (action.name() === 'complete') words = action.args;
  });
  const line = () => readCompletionLine(program, words);
  offerFromProject(completion, line);
  completion.commands.get('completion')!.description = DESCRIPTION;
  program.commands
    .find((command) => command.name() === 'completion')
    ?.description(DESCRIPTION)
    .addHelpText('after', INSTALL_HELP)
    .action((shell: string) => {
      process.stdout.write(completionScript(completion, program.name(), shell));
    });
}

/** Completion over a tree of the commands (the one the build writes into completion's own bundle), not the commands. */
export function completionOfTree(tree: readonly CommandNode[]): (program: Command) => void {
  return (program) => {
    addCommandTree(program, tree);
    registerCompletion(program);
  };
}

const DESCRIPTION = 'Print the script that completes commands, flags, pipelines, runs and steps in bash, zsh or fish.';

const INSTALL_HELP = `
Install (wave must be on PATH):
  bash:  echo 'source <(wave completion bash)' >> ~/.bashrc
  zsh:   echo 'source <(wave completion zsh)' >> ~/.zshrc    (after compinit)
  fish:  mkdir -p ~/.config/fish/completions && wave completion fish > ~/.config/fish/completions/wave.fish`;

/** Gives the arguments and options that name a pipeline, a run or a step their candidates. */
function offerFromProject(completion: RootCommand, line: () => CompletionLine): void {
  for (const [name, command] of completion.commands) {
    for (const [argument, spec] of command.arguments) {
      if (RUN_ARGUMENTS.has(argument)) spec.handler = (complete) => offer(complete, runCandidates(placeOf(line())));
      if (PIPELINE_ARGUMENTS.has(argument)) spec.handler = (complete) => offer(complete, pipelineCandidates(placeOf(line())));
    }
    for (const [option, spec] of command.options) {
      if (STEP_OPTIONS.has(option)) spec.handler = (complete) => offer(complete, stepCandidates(name, line()));
      if (STEP_LIST_OPTIONS.has(option)) spec.handler = (complete) => offer(complete, stepListCandidates(name, line()));
    }
  }
}

/** The steps of the run named on the line, or of the pipeline for `wave run`. */
function stepCandidates(command: string, read: CompletionLine): Candidate[] {
  const [named] = read.positionals;
  if (named === undefined) return [];
  const ids = command === 'run' ? pipelineStepIds(placeOf(read), named) : runStepIds(placeOf(read), named);
  return ids.map((id) => ({ value: id, description: `a step of ${named}` }));
}

/** `--steps a,b,<Tab>`: each step not yet in the list, after the ones already typed. */
function stepListCandidates(command: string, read: CompletionLine): Candidate[] {
  const typed = read.current.slice(0, read.current.lastIndexOf(',') + 1);
  const taken = new Set(typed.split(','));
  return stepCandidates(command, read)
    .filter((candidate) => !taken.has(candidate.value))
    .map((candidate) => ({ ...candidate, value: `${typed}${candidate.value}` }));
}

/** The line is typed in the working folder, for the project `-m` names on it or the one around it. */
function placeOf(read: CompletionLine): CompletionPlace {
  return { cwd: process.cwd(), manifest: read.options.manifest };
}

/**
 * Hands the candidates to the library, which prints one a line as `value<TAB>description`. Values and descriptions
 * come from file, folder and step names anyone may choose: a value with a line break, tab or other control character
 * would break its line (or carry a terminal escape) and is left out; such characters in a description become spaces.
 */
function offer(complete: Complete, candidates: readonly Candidate[]): void {
  for (const { value, description } of candidates) if (!CONTROL.test(value)) complete(value, description.replace(CONTROLS, ' '));
}

const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');
